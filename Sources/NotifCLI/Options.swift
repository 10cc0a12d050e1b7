import NotifModel

/// A command-line usage error: the message, without the program name or usage line.
///
/// The message quotes the arguments as given; `CommandLineTool.reportUsageError` writes it
/// visibly (`Diagnostic.visible`).
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// One lowercase line that says what is wrong.
  public var message: String

  /// Creates a usage error.
  public init(_ message: String) { self.message = message }

  public var description: String { message }
}

/// One option a tool accepts.
public struct OptionSpec: Sendable {
  /// The one-letter form, if any.
  public var short: Character?
  /// The long form, without the dashes.
  public var long: String
  /// Whether the option takes a value (`--opt value` or `--opt=value`).
  public var takesValue: Bool
  /// For a name the tool took before (`RenamedOption`): the name that replaces it, and whether
  /// the old one is still read as it, with a warning (else its use is a usage error).
  public var renamed: (new: String, keepsMeaning: Bool)?

  /// Creates an option; `renamed` for a name the tool took before.
  public init(
    short: Character?, long: String, takesValue: Bool,
    renamed: (new: String, keepsMeaning: Bool)? = nil
  ) {
    self.short = short
    self.long = long
    self.takesValue = takesValue
    self.renamed = renamed
  }

  /// Creates an option: `.flag("check", "c")` or `.value("app")`.
  public static func flag(_ long: String, _ short: Character? = nil) -> OptionSpec {
    OptionSpec(short: short, long: long, takesValue: false)
  }

  /// Creates an option that takes a value.
  public static func value(_ long: String, _ short: Character? = nil) -> OptionSpec {
    OptionSpec(short: short, long: long, takesValue: true)
  }
}

/// What the option scanner found: options in command-line order, then operands.
public struct ScannedArguments: Sendable, Equatable {
  /// Each option given, by long name, with its value if it takes one.
  public var options: [Option]
  /// The operands (file names), `-` included.
  public var operands: [String]
  /// A warning for each old spelling given (`RenamedOption.keepsMeaning`), read as the new.
  public var deprecated: [String] = []

  /// One option as given.
  public struct Option: Sendable, Equatable {
    /// The long name.
    public var name: String
    /// The value, for options that take one.
    public var value: String?
  }
}

/// A tiny getopt_long: short options (bundled, `-abc`), long options with `--opt value` or
/// `--opt=value`, `--` to end options, `-` as an operand. Options and operands may mix.
public enum OptionScanner {
  /// Scans `arguments` (without the program name) against `specs`.
  ///
  /// - Throws: `UsageError` for an unknown option, a missing value, or a value given to a flag.
  public static func scan(_ arguments: [String], _ specs: [OptionSpec]) throws(UsageError)
    -> ScannedArguments
  {
    var result = ScannedArguments(options: [], operands: [])
    var index = 0
    func value(for spec: OptionSpec, shown: String) throws(UsageError) -> String {
      index += 1
      guard index < arguments.count else { throw UsageError("option '\(shown)' needs a value") }
      return arguments[index]
    }
    while index < arguments.count {
      let argument = arguments[index]
      if argument == "--" {
        result.operands += arguments[(index + 1)...]
        break
      }
      if argument.hasPrefix("--") {
        let body = argument.dropFirst(2)
        let name = body.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
        let inline = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
        guard let spec = specs.first(where: { $0.long == name }) else {
          throw UsageError("unknown option '--\(name)'")
        }
        var long = name
        if let renamed = spec.renamed {
          try result.noteRenamed(name, renamed)
          long = renamed.new
        }
        if spec.takesValue {
          var given = inline
          if given == nil { given = try value(for: spec, shown: "--\(name)") }
          result.options.append(.init(name: long, value: given))
        } else {
          if inline != nil { throw UsageError("option '--\(name)' takes no value") }
          result.options.append(.init(name: long, value: nil))
        }
      } else if argument.hasPrefix("-") && argument != "-" {
        var letters = Substring(argument.dropFirst())
        while let letter = letters.first {
          letters = letters.dropFirst()
          guard let spec = specs.first(where: { $0.short == letter }) else {
            throw UsageError("unknown option '-\(letter)'")
          }
          if spec.takesValue {
            var given = String(letters)
            if letters.isEmpty { given = try value(for: spec, shown: "-\(letter)") }
            result.options.append(.init(name: spec.long, value: given))
            break
          }
          result.options.append(.init(name: spec.long, value: nil))
        }
      } else {
        result.operands.append(argument)
      }
      index += 1
    }
    return result
  }
}

extension ScannedArguments {
  /// Takes in an old name given (`OptionSpec.renamed`): its warning, where only its spelling
  /// changed.
  ///
  /// - Throws: `UsageError` naming the new spelling, where the old name now means something
  ///   else: it is never read silently as either.
  mutating func noteRenamed(_ old: String, _ renamed: (new: String, keepsMeaning: Bool))
    throws(UsageError)
  {
    guard renamed.keepsMeaning else {
      let elsewhere = OptionTable.entries.first { $0.long == old }
      throw UsageError(
        "'--\(old)' is now '--\(renamed.new)' here"
          + (elsewhere.map {
            ", since '--\(old)' means something else in the notif tools: \($0.meaning)"
          }
            ?? ""))
    }
    let warning =
      "'--\(old)' is deprecated: it is '--\(renamed.new)', as in every notif tool, "
      + "and goes in a later release"
    if !deprecated.contains(warning) { deprecated.append(warning) }
  }

  /// Whether a flag was given.
  public func has(_ name: String) -> Bool { options.contains { $0.name == name } }

  /// The last value given for an option (later ones win, as with most Unix tools).
  public func last(_ name: String) -> String? {
    options.last { $0.name == name }?.value
  }

  /// The file operands, or `-` (standard input) when none were given.
  public var files: [String] { operands.isEmpty ? ["-"] : operands }

  /// Every value given for a repeatable option, in order.
  public func all(_ name: String) -> [String] {
    options.compactMap { $0.name == name ? $0.value : nil }
  }
}

extension OptionScanner {
  /// `text` as a whole number: decimal digits only (no sign, no space, not empty); nil when it
  /// is not one, or too large for an `Int`. Each option says its own range in its message.
  public static func wholeNumber(_ text: String) -> Int? {
    guard !text.isEmpty,
      text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { return nil }
    return Int(text)
  }
}

extension FieldLimits {
  /// The value of the option `--name`, given as `text`: a whole number in `range`.
  ///
  /// - Throws: `UsageError` that gives the range; for digits past it, "at most" the largest.
  public static func option(_ name: String, _ text: String, in range: ClosedRange<Int64>)
    throws(UsageError) -> Int
  {
    let digits = !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    if digits, let value = Int64(text), range.contains(value) { return Int(value) }
    if digits, Int64(text).map({ $0 > range.upperBound }) ?? true {
      throw UsageError("--\(name): '\(text)' is too large: at most \(range.upperBound)")
    }
    throw UsageError(
      "--\(name): '\(text)' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
  }
}
