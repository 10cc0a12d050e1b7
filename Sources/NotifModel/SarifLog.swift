import NotifJSON

// What `--format sarif` writes, for every tool (NotifCLI's Reporter keeps one per run): the
// OASIS Static Analysis Results Interchange Format, version 2.1.0.

/// A SARIF 2.1.0 log of one run of one tool: the diagnostics as results, each rule they name
/// described once from the rule book (or, for a code no row names, from notif-diagnostics(7)).
///
/// The log is one JSON document, written whole when the run ends (`document`); SARIF has no
/// line-per-result form. The shape follows the standard's sections: one `run` (3.14) with
/// the tool as `driver` (3.18), `columnKind` `unicodeCodePoints` (3.14.17) since a column
/// counts Unicode scalars as in every other format, one `result` (3.27) per diagnostic with
/// `ruleId` and `ruleIndex` into `tool.driver.rules` (3.19.23), its `level` from the severity,
/// and a `physicalLocation` (3.29) whose `region` (3.30) has the line and column.
public struct SarifLog: Sendable {
  /// The schema the document names: the OASIS schema of SARIF 2.1.0, errata 01.
  public static let schemaURI =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

  /// The program, the driver's name.
  public let tool: String
  /// Its version: the toolkit's, as `--version` gives it.
  public let version: String
  /// Each result, as the JSON text of its object.
  private var results: [String] = []
  /// The ids of the rules the results name, in the order first named: `ruleIndex` is the
  /// place here.
  private var ruleIDs: [String] = []
  private var ruleIndex: [String: Int] = [:]

  /// An empty log of `tool`'s run.
  public init(tool: String, version: String) {
    self.tool = tool
    self.version = version
  }

  /// How many results the log holds.
  public var count: Int { results.count }

  /// Adds `diagnostic` as a result. Its rule is its row of the book when it names one, else
  /// its code.
  public mutating func add(_ diagnostic: Diagnostic) {
    let id = diagnostic.rule ?? diagnostic.code
    let index: Int
    if let known = ruleIndex[id] {
      index = known
    } else {
      index = ruleIDs.count
      ruleIDs.append(id)
      ruleIndex[id] = index
    }
    results.append(Self.result(diagnostic, ruleIndex: index))
  }

  /// The JSON text of `diagnostic`'s `result` object, with `ruleIndex` when it is given.
  public static func result(_ diagnostic: Diagnostic, ruleIndex: Int?) -> String {
    var out = ByteBuffer(capacity: 256)
    out.append("{\"ruleId\":")
    JSONEscapes.writeString(diagnostic.rule ?? diagnostic.code, into: &out)
    if let ruleIndex {
      out.append(",\"ruleIndex\":")
      out.append(decimal: Int64(ruleIndex))
    }
    out.append(",\"level\":")
    JSONEscapes.writeString(diagnostic.severity.rawValue, into: &out)
    out.append(",\"message\":{\"text\":")
    JSONEscapes.writeString(diagnostic.message, into: &out)
    out.append("},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":")
    JSONEscapes.writeString(Self.uri(diagnostic.file), into: &out)
    out.append("}")
    // SARIF's lines and columns start at 1, as ours do; a 0 (never written) is left out.
    if let line = diagnostic.line, line > 0 {
      out.append(",\"region\":{\"startLine\":")
      out.append(decimal: Int64(line))
      if let column = diagnostic.column, column > 0 {
        out.append(",\"startColumn\":")
        out.append(decimal: Int64(column))
      }
      out.append("}")
    }
    out.append("}}]")
    if diagnostic.rule != nil {
      // The code, which scripts of the other formats match, stays at hand.
      out.append(",\"properties\":{\"code\":")
      JSONEscapes.writeString(diagnostic.code, into: &out)
      out.append("}")
    }
    out.append("}")
    return out.text
  }

  /// The log as one JSON document, with a final newline.
  public func document() -> String {
    var out = ByteBuffer(capacity: 1024)
    out.append("{\"$schema\":")
    JSONEscapes.writeString(Self.schemaURI, into: &out)
    out.append(",\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":")
    JSONEscapes.writeString(tool, into: &out)
    out.append(",\"version\":")
    JSONEscapes.writeString(version, into: &out)
    out.append(",\"rules\":[")
    for (place, id) in ruleIDs.enumerated() {
      if place > 0 { out.append(",") }
      Self.writeDescriptor(id, into: &out)
    }
    out.append("]}},\"columnKind\":\"unicodeCodePoints\",\"results\":[")
    for (place, result) in results.enumerated() {
      if place > 0 { out.append(",") }
      out.append(utf8: result)
    }
    out.append("]}]}\n")
    return out.text
  }

  /// The `reportingDescriptor` (3.49) of the rule `id`: a row of the rule book with its
  /// code as name, its words, verdict and source's address, or a code of
  /// notif-diagnostics(7) with its entry's words.
  private static func writeDescriptor(_ id: String, into out: inout ByteBuffer) {
    out.append("{\"id\":")
    JSONEscapes.writeString(id, into: &out)
    if let rule = Rule(id: id) {
      let entry = rule.entry
      out.append(",\"name\":")
      JSONEscapes.writeString(entry.code, into: &out)
      out.append(",\"shortDescription\":{\"text\":")
      JSONEscapes.writeString("\(entry.path): \(entry.summary)", into: &out)
      out.append("},\"fullDescription\":{\"text\":")
      JSONEscapes.writeString(
        "\(entry.format), \(entry.path): \(entry.summary). What the service does: \(entry.vendor)",
        into: &out)
      out.append("}")
      if entry.sourceAddress.hasPrefix("https://") {
        out.append(",\"helpUri\":")
        JSONEscapes.writeString(entry.sourceAddress, into: &out)
      }
      out.append(",\"help\":{\"text\":")
      JSONEscapes.writeString(
        "notif-rules(7), \(id); notif-parse --explain \(id). Source: \(entry.sourceTitle)",
        into: &out)
      out.append("}")
      if let verdict = entry.verdict {
        out.append(",\"defaultConfiguration\":{\"level\":")
        JSONEscapes.writeString(verdict.rawValue, into: &out)
        out.append("}")
      }
    } else if let code = DiagnosticCode.named(id) {
      out.append(",\"name\":")
      JSONEscapes.writeString(code.name, into: &out)
      out.append(",\"shortDescription\":{\"text\":")
      JSONEscapes.writeString(code.summary, into: &out)
      out.append("},\"fullDescription\":{\"text\":")
      JSONEscapes.writeString(code.text, into: &out)
      out.append("},\"help\":{\"text\":")
      JSONEscapes.writeString("notif-diagnostics(7), \(id)", into: &out)
      out.append("}")
    }
    out.append("}")
  }

  /// `file` as a URI reference (RFC 3986): a relative path stays relative, an absolute one
  /// becomes a `file:` URI, and every byte but the unreserved characters and `/` is
  /// percent-encoded, so that `<stdin>` is `%3Cstdin%3E` and a space `%20`.
  public static func uri(_ file: String) -> String {
    var out = file.hasPrefix("/") ? "file://" : ""
    let hex = Array("0123456789ABCDEF".utf8)
    for byte in file.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        out += "%"
        out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
        out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0xF)]))
      }
    }
    return out
  }
}
