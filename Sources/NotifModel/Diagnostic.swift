import NotifJSON

/// How serious a diagnostic is.
public enum Severity: String, Sendable, Comparable {
  /// Nothing is wrong: what a run did that its output does not show, such as the records
  /// it left out because the device does not list them (`NotListed`). Never changes the exit
  /// status.
  case note
  case warning, error

  public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }

  private var rank: Int {
    switch self {
    case .note: 0
    case .warning: 1
    case .error: 2
    }
  }

  /// The SGR color of the severity's word in a colored diagnostic: red, magenta, cyan.
  public var sgrColor: Int {
    switch self {
    case .note: 36
    case .warning: 35
    case .error: 31
    }
  }

  /// The command of a GitHub workflow annotation: `error`, `warning`, or `notice` for a note.
  public var githubCommand: String { self == .note ? "notice" : rawValue }
}

/// One problem found in the input, with where it is.
///
/// Tools build diagnostics as values; `DiagnosticFormat` turns them into one line each. A
/// diagnostic is also what a step that stops throws (`throws(Diagnostic)`), such as reading
/// the texts' registry and strings files: there is no problem type beside it.
public struct Diagnostic: Error, Sendable, Equatable {
  /// Whether the record was rejected (`error`) or kept (`warning`), or nothing is wrong
  /// (`note`).
  public var severity: Severity
  /// A stable name for the kind of problem, such as `PayloadTooLarge`.
  public var code: String
  /// One lowercase line with user values in single quotes and no final period.
  public var message: String
  /// The file as named on the command line, or `<stdin>`.
  public var file: String
  /// The 1-based line, if the problem has one.
  public var line: Int?
  /// The 1-based column in Unicode scalars, if the problem has one.
  public var column: Int?
  /// The id of the rule-book row the problem breaks (`apns-badge`), for a problem of a push
  /// message; nil for the others, whose code is their name.
  public var rule: String?

  /// Creates a diagnostic.
  public init(
    _ severity: Severity, _ code: String, _ message: String, file: String, line: Int? = nil,
    column: Int? = nil, rule: String? = nil
  ) {
    self.severity = severity
    self.code = code
    self.message = message
    self.file = file
    self.line = line
    self.column = column
    self.rule = rule
  }
}

/// Why a JSON text is rejected (a record, a group or digest object, a push service's answer):
/// its diagnostic code, the message, and the byte offset in the text it is about, which the
/// tool turns into a line and column of its input, and so into a `Diagnostic`.
public struct RecordProblem: Error, Sendable, Equatable {
  /// The diagnostic's code: `BadCreatedAt`, `BadType`, ...
  public var code: String
  /// One lowercase line, user values in single quotes.
  public var message: String
  /// The offset in the JSON text of the value the problem is about.
  public var offset: Int

  /// Creates a problem.
  public init(code: String, message: String, offset: Int) {
    self.code = code
    self.message = message
    self.offset = offset
  }

  /// A JSON text that is not an object, where a record or group object was wanted.
  public static var notAnObject: RecordProblem {
    RecordProblem(code: "NotAnObject", message: "the JSON text is not an object", offset: 0)
  }
}

extension Diagnostic {
  /// `text` with each character that could break a diagnostic's line, drive the terminal it
  /// is shown on, reorder it or hide what it holds written visibly: `\n`, `\r`, `\t`, `\e`
  /// for escape, and `\u{XX}` (the code point in hexadecimal) for the others.
  ///
  /// Messages quote what the input and the command line hold, which is untrusted. The
  /// characters are those of `escapeRuns`, generated from the Unicode Character Database by
  /// `scripts/gen-width.py`, whose docstring has the rule: always the controls, DEL, the
  /// bidirectional controls, U+2028, U+2029 and the default-ignorable characters that draw
  /// nothing on their own (U+200B, U+FEFF, the Hangul fillers...); ZWJ, ZWNJ and the variation
  /// selectors unless they follow a character shown as it is, not a space; the tag characters
  /// outside an emoji tag sequence (the flag of Scotland). Emoji sequences and Persian or
  /// Indic words come out unchanged.
  ///
  /// - Complexity: O(n) in the length of `text`; printable ASCII is returned as it is
  ///   without a look at the table.
  public static func visible(_ text: String) -> String {
    // Printable ASCII, what nearly every diagnostic is, needs nothing.
    if text.utf8.allSatisfy({ $0 &- 0x20 < 0x5F }) { return text }
    let scalars = text.unicodeScalars
    var out = ""
    var copied = scalars.startIndex  // what is before it is in `out`
    var afterShown = false  // whether the character before is shown as it is
    var index = scalars.startIndex
    while index != scalars.endIndex {
      let scalar = scalars[index]
      let next = scalars.index(after: index)
      let shown: Bool
      switch escape(scalar.value) {
      case nil: shown = true
      case .always?, .tag?: shown = false
      case .unattached?: shown = afterShown
      }
      if shown {
        afterShown = scalar != " "  // a space is nothing to join or vary
        // An emoji tag sequence is shown whole; its tags are kept nowhere else.
        index = tagSequenceEnd(scalars, base: scalar, after: next) ?? next
        continue
      }
      out.unicodeScalars.append(contentsOf: scalars[copied..<index])
      switch scalar {
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{1B}": out += "\\e"
      default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
      afterShown = false
      copied = next
      index = next
    }
    if copied == scalars.startIndex { return text }
    out.unicodeScalars.append(contentsOf: scalars[copied...])
    return out
  }

  /// How `visible` treats `value`; nil for a character shown as it is.
  ///
  /// - Complexity: O(log n) in the runs of `escapeRuns`, O(1) for ASCII.
  static func escape(_ value: UInt32) -> Escape? {
    if value < 0x80 { return value < 0x20 || value == 0x7F ? .always : nil }
    var low = 0  // then: the number of runs that start at or before `value`
    var high = escapeRuns.count
    while low < high {
      let middle = (low + high) / 2
      if escapeRuns[middle].first <= value { low = middle + 1 } else { high = middle }
    }
    guard low > 0, value <= escapeRuns[low - 1].last else { return nil }
    return escapeRuns[low - 1].escape
  }

  /// Where the emoji tag sequence that `base` starts ends, when `base` is a tag base and the
  /// scalars from `start` are 3 to 7 tag letters or digits and CANCEL TAG; else nil.
  private static func tagSequenceEnd(
    _ scalars: String.UnicodeScalarView, base: Unicode.Scalar, after start: String.Index
  ) -> String.Index? {
    guard tagBases.contains(base.value) else { return nil }
    var index = start
    var count = 0
    while index != scalars.endIndex, count <= 7 {
      let value = scalars[index].value
      index = scalars.index(after: index)
      switch value {
      case 0xE0030...0xE0039, 0xE0061...0xE007A: count += 1
      case 0xE007F: return count >= 3 ? index : nil
      default: return nil
      }
    }
    return nil
  }
}

/// The ways diagnostics can be written.
public enum DiagnosticFormat: String, Sendable, CaseIterable {
  /// `PROG: FILE:LINE:COL: error: message [Code]`
  case text
  /// GitHub Actions workflow commands: `::error file=F,line=L,col=C,title=Code::message`
  case github
  /// One JSON object per diagnostic: `file`, `line`, `column`, `severity`, `code`, `rule`
  /// (only for a rule of the book) and `message`.
  case json
  /// One SARIF 2.1.0 document of the run (`SarifLog`), which the tool writes when it ends;
  /// a diagnostic alone renders as its `result` object, on a line.
  case sarif

  /// The line (with its newline) that reports `diagnostic` for program `program`; in text,
  /// with `color`, its severity in bold color (SGR: red, magenta, cyan), as compilers show it.
  /// A run in SARIF gathers the diagnostics into one `SarifLog` instead (NotifCLI's
  /// `Reporter`).
  public func render(_ diagnostic: Diagnostic, program: String, color: Bool = false) -> String {
    switch self {
    case .text:
      var location = diagnostic.file
      if let line = diagnostic.line {
        location += ":\(line)"
        if let column = diagnostic.column { location += ":\(column)" }
      }
      var severity = diagnostic.severity.rawValue
      if color { severity = "\u{1B}[1;\(diagnostic.severity.sgrColor)m\(severity)\u{1B}[0m" }
      return
        "\(program): \(Diagnostic.visible(location)): \(severity): \(Diagnostic.visible(diagnostic.message)) [\(diagnostic.code)]\n"
    case .github:
      var properties = "file=\(Self.githubProperty(diagnostic.file))"
      if let line = diagnostic.line {
        properties += ",line=\(line)"
        if let column = diagnostic.column { properties += ",col=\(column)" }
      }
      properties += ",title=\(Self.githubProperty(diagnostic.code))"
      return
        "::\(diagnostic.severity.githubCommand) \(properties)::\(Self.githubData(diagnostic.message))\n"
    case .json:
      var out = ByteBuffer(capacity: 160)
      out.append("{\"file\":")
      JSONEscapes.writeString(diagnostic.file, into: &out)
      out.append(",\"line\":")
      if let line = diagnostic.line { out.append(decimal: Int64(line)) } else { out.append("null") }
      out.append(",\"column\":")
      if let column = diagnostic.column {
        out.append(decimal: Int64(column))
      } else {
        out.append("null")
      }
      out.append(",\"severity\":")
      JSONEscapes.writeString(diagnostic.severity.rawValue, into: &out)
      out.append(",\"code\":")
      JSONEscapes.writeString(diagnostic.code, into: &out)
      if let rule = diagnostic.rule {
        out.append(",\"rule\":")
        JSONEscapes.writeString(rule, into: &out)
      }
      out.append(",\"message\":")
      JSONEscapes.writeString(diagnostic.message, into: &out)
      out.append("}\n")
      return out.text
    case .sarif:
      return SarifLog.result(diagnostic, ruleIndex: nil) + "\n"
    }
  }

  /// Escapes a workflow command's message: `%`, CR and LF, then what `Diagnostic.visible`
  /// writes visibly.
  static func githubData(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "%": out += "%25"
      case "\r": out += "%0D"
      case "\n": out += "%0A"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return Diagnostic.visible(out)
  }

  /// Escapes a workflow command's property value: as data, plus `:` and `,`.
  static func githubProperty(_ text: String) -> String {
    githubData(text).replacingColonsAndCommas()
  }
}

extension String {
  fileprivate func replacingColonsAndCommas() -> String {
    var out = ""
    for scalar in unicodeScalars {
      switch scalar {
      case ":": out += "%3A"
      case ",": out += "%2C"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}

extension JSONKind {
  /// The kind as a diagnostic names it, with its article: `an object`, `a string`, `null`:
  /// "'relevance' is a string, not a number".
  public var phrase: String {
    switch self {
    case .object: "an object"
    case .array: "an array"
    case .string: "a string"
    case .number: "a number"
    case .bool: "a boolean"
    case .null: "null"
    }
  }
}

extension RecordReader {
  /// A diagnostic about the byte at `offset` in the JSON text just read, placed at its line
  /// and column of the input.
  public func diagnostic(
    _ severity: Severity, _ code: String, _ message: String, atRecordOffset offset: Int
  ) -> Diagnostic {
    let at = position(ofRecordOffset: offset)
    return Diagnostic(
      severity, code, message, file: name, line: at.line, column: at.column)
  }
}
