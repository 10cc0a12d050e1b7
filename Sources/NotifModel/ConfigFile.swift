import NotifJSON

/// A JSON configuration file, read whole: notif-expire's policy, the category registry of
/// notif-parse and notif-summarize, an Xcode string catalog. The one loader of them all, so that
/// every tool reports the same broken file with the same position and code.
///
/// The file is one JSON object, read as strictly as records are (RFC 8259, UTF-8, no duplicate
/// keys); one byte order mark at its start is skipped. Every problem is a `Diagnostic` that
/// names the file, with its line and column where it has a place, and one code per kind:
///
/// - `Unreadable`: the file cannot be opened or read, or is longer than `maxBytes`;
/// - the JSON parser's code (`InvalidJSON`, `InvalidUTF8`, `DuplicateKey`, `NestingTooDeep`):
///   the file is not one JSON text (an empty file, or text after the object, is `InvalidJSON`);
/// - the file's own code (`BadPolicy`, `BadRegistry`, `BadStrings`): the JSON text is not what
///   the file's format allows: not an object, or a value its reader rejects.
public struct ConfigFile: Sendable, Equatable {
  /// The path, as the user gave it.
  public let path: String
  /// The file's bytes.
  public let bytes: [UInt8]
  /// Where the JSON text starts: after a byte order mark and white space. View offsets count
  /// from here.
  private let textStart: Int
  /// Where counting lines and columns starts: after a byte order mark.
  private let lineStart: Int

  /// The longest file read, in bytes: far beyond any real configuration.
  public static let maxBytes = 64 << 20

  /// The code of a file that cannot be opened or read.
  public static let unreadable = "Unreadable"

  /// A value that the file's format does not allow, as its reader finds it.
  public struct Rejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// The byte offset in the JSON text (a view's token offset) of the offending key or value.
    public var offset: Int
    /// One lowercase line.
    public var message: String

    public var description: String { message }

    /// Creates a rejection.
    public init(offset: Int, message: String) {
      self.offset = offset
      self.message = message
    }
  }

  /// Reads the file at `path` whole.
  ///
  /// - Throws: `ConfigFileError` with the code `Unreadable`: it cannot be opened or read (a
  ///   folder cannot be read), or it is longer than `maxBytes`.
  /// - Complexity: O(n) in the size of the file.
  public init(path: String) throws(ConfigFileError) {
    do {
      self.init(path: path, bytes: try readWholeFile(path: path, limit: Self.maxBytes))
    } catch {
      throw ConfigFileError(
        Diagnostic(.error, Self.unreadable, error.systemError.message, file: path))
    }
  }

  /// A file already read: `bytes` as from `path`.
  public init(path: String, bytes: [UInt8]) {
    self.path = path
    self.bytes = bytes
    lineStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var start = lineStart
    while start < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[start]) { start += 1 }
    textStart = start
  }

  /// Parses the file as one JSON object and returns what `interpret` makes of its view.
  ///
  /// `what` names the file's kind in messages, with its article (`a policy`); `code` is the
  /// file's own code, for a root that is not an object and for what `interpret` rejects.
  ///
  /// - Throws: `ConfigFileError`: see `ConfigFile` for the codes.
  /// - Complexity: O(n) in the size of the file, plus what `interpret` does.
  public func interpret<T>(
    as what: String, code: String, _ interpret: (JSONView) throws(Rejection) -> T
  ) throws(ConfigFileError) -> T {
    let invalidJSON = JSONError.Code.invalidJSON.rawValue
    let outcome: Result<T, ConfigFileError> = bytes.withUnsafeBytes { raw in
      let text = UnsafeRawBufferPointer(rebasing: raw[textStart...])
      guard !text.isEmpty else {
        return .failure(error(invalidJSON, "the file is empty: \(what) is one JSON object", 0))
      }
      var parser = JSONParser()
      let end: Int
      switch parser.parse(text, isFinal: true) {
      case .complete(let length): end = length
      case .incomplete:  // only for a text beyond 2 GiB, which maxBytes excludes
        return .failure(error(invalidJSON, "unexpected end of input", text.count))
      case .failed(let failure):
        return .failure(error(failure.code.rawValue, failure.message, failure.offset))
      }
      var after = end
      while after < text.count, [0x20, 0x0A, 0x0D, 0x09].contains(text[after]) { after += 1 }
      guard after == text.count else {
        return .failure(
          error(invalidJSON, "\(what) is one JSON object; more text follows it", after))
      }
      return parser.withView(over: UnsafeRawBufferPointer(rebasing: text[..<end])) { view in
        guard view.kind(0) == .object else {
          return .failure(
            error(code, "\(what) is one JSON object, not \(view.kind(0).phrase)", 0))
        }
        do throws(Rejection) {
          return .success(try interpret(view))
        } catch {
          return .failure(self.error(code, error.message, error.offset))
        }
      }
    }
    return try outcome.get()
  }

  /// Reads the file at `path` and interprets it (see `interpret(as:code:_:)`); returns the
  /// value and the file, which places the offsets the value keeps.
  ///
  /// - Throws: `ConfigFileError`: see `ConfigFile` for the codes.
  public static func load<T>(
    _ path: String, as what: String, code: String,
    _ interpret: (JSONView) throws(Rejection) -> T
  ) throws(ConfigFileError) -> (value: T, file: ConfigFile) {
    let file = try ConfigFile(path: path)
    return (try file.interpret(as: what, code: code, interpret), file)
  }

  /// The 1-based line and column, in Unicode scalars, of byte `offset` of the JSON text.
  ///
  /// - Complexity: O(`offset`).
  public func position(of offset: Int) -> (line: Int, column: Int) {
    let at = min(max(textStart + offset, lineStart), bytes.count)
    return bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return (1, 1) }
      return RecordReader.position(of: at, in: base, lineStart: lineStart)
    }
  }

  /// An error of this file at byte `offset` of its JSON text.
  private func error(_ code: String, _ message: String, _ offset: Int) -> ConfigFileError {
    let at = position(of: offset)
    return ConfigFileError(
      Diagnostic(.error, code, message, file: path, line: at.line, column: at.column))
  }
}

/// A configuration file that cannot be used: the diagnostic that says where and why.
public struct ConfigFileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// An error naming the file, with the line and column where it has a place.
  public var diagnostic: Diagnostic

  public var description: String { diagnostic.message }

  /// Wraps `diagnostic`.
  public init(_ diagnostic: Diagnostic) {
    self.diagnostic = diagnostic
  }
}
