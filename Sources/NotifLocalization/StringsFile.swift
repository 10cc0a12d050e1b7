/// Reads an old-style `.strings` file: `"key" = "value";` pairs with `/* */` and `//` comments,
/// in UTF-8 or, with a byte order mark, UTF-16 (as Xcode used to write them). Escapes: `\"`,
/// `\\`, `\'`, `\n`, `\t`, `\r`, `\0` and `\Uxxxx` / `\uxxxx` (UTF-16 units, surrogate pairs
/// joined). A key or value may also be a bare word of letters, digits, `_`, `.`, `-`, `$`, `/`,
/// `:`. The values are plain translations, without plural variants.
enum StringsFile {
  static func load(_ path: String) throws(StringsError) -> [String: LocalizedEntry] {
    let bytes = try LocalizedStrings.readFile(path)
    let scalars = Array(decode(bytes).unicodeScalars)
    var parser = Parser(scalars: scalars, path: path)
    return try parser.entries()
  }

  /// The text of the file: UTF-16 after a byte order mark, else UTF-8 (one BOM skipped).
  static func decode(_ bytes: [UInt8]) -> String {
    if bytes.count >= 2 && (bytes[0], bytes[1]) == (0xFF, 0xFE) {
      let units = stride(from: 2, to: bytes.count - 1, by: 2).map {
        UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8
      }
      return String(decoding: units, as: UTF16.self)
    }
    if bytes.count >= 2 && (bytes[0], bytes[1]) == (0xFE, 0xFF) {
      let units = stride(from: 2, to: bytes.count - 1, by: 2).map {
        UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])
      }
      return String(decoding: units, as: UTF16.self)
    }
    let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    return String(decoding: body, as: UTF8.self)
  }

  private struct Parser {
    let scalars: [Unicode.Scalar]
    let path: String
    var index = 0
    var line = 1

    init(scalars: [Unicode.Scalar], path: String) {
      self.scalars = scalars
      self.path = path
    }

    func fail(_ message: String, line: Int? = nil) -> StringsError {
      StringsError(file: path, line: line ?? self.line, message: message)
    }

    mutating func entries() throws(StringsError) -> [String: LocalizedEntry] {
      var result: [String: LocalizedEntry] = [:]
      while true {
        try skipSpaceAndComments()
        guard index < scalars.count else { return result }
        let keyLine = line
        let key = try token("a key")
        try skipSpaceAndComments()
        guard index < scalars.count, scalars[index] == "=" else {
          throw fail("expected '=' after the key '\(key)'")
        }
        index += 1
        try skipSpaceAndComments()
        let value = try token("a value")
        try skipSpaceAndComments()
        guard index < scalars.count, scalars[index] == ";" else {
          throw fail("expected ';' after the value of '\(key)'")
        }
        index += 1
        if result[key] == nil {
          result[key] = LocalizedEntry(format: value, file: path, line: keyLine)
        }
      }
    }

    mutating func skipSpaceAndComments() throws(StringsError) {
      while index < scalars.count {
        let scalar = scalars[index]
        if scalar == "\n" {
          line += 1
          index += 1
        } else if scalar.properties.isWhitespace {
          index += 1
        } else if scalar == "/" && index + 1 < scalars.count && scalars[index + 1] == "*" {
          let start = line
          index += 2
          while index < scalars.count
            && !(scalars[index] == "*" && index + 1 < scalars.count && scalars[index + 1] == "/")
          {
            if scalars[index] == "\n" { line += 1 }
            index += 1
          }
          guard index < scalars.count else {
            throw fail("a '/*' comment is never closed", line: start)
          }
          index += 2
        } else if scalar == "/" && index + 1 < scalars.count && scalars[index + 1] == "/" {
          while index < scalars.count && scalars[index] != "\n" { index += 1 }
        } else {
          return
        }
      }
    }

    static func isBare(_ scalar: Unicode.Scalar) -> Bool {
      scalar.isASCII
        && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
          || "_.-$/:".unicodeScalars.contains(scalar))
    }

    mutating func token(_ what: String) throws(StringsError) -> String {
      guard index < scalars.count else { throw fail("expected \(what), found the end of the file") }
      if scalars[index] != "\"" {
        var word = ""
        while index < scalars.count && Self.isBare(scalars[index]) {
          word.unicodeScalars.append(scalars[index])
          index += 1
        }
        guard !word.isEmpty else {
          throw fail("expected \(what) in double quotes, found '\(scalars[index])'")
        }
        return word
      }
      let start = line
      index += 1
      var text = ""
      var pendingHigh: UInt32? = nil
      while true {
        guard index < scalars.count else { throw fail("a string is never closed", line: start) }
        let scalar = scalars[index]
        index += 1
        if scalar == "\"" { break }
        if scalar == "\n" { line += 1 }
        guard scalar == "\\" else {
          text.unicodeScalars.append(scalar)
          continue
        }
        guard index < scalars.count else { throw fail("a string is never closed", line: start) }
        let escaped = scalars[index]
        index += 1
        switch escaped {
        case "n": text += "\n"
        case "t": text += "\t"
        case "r": text += "\r"
        case "0": text += "\0"
        case "\"", "\\", "'": text.unicodeScalars.append(escaped)
        case "\n":
          line += 1
          text += "\n"
        case "U", "u":
          var value: UInt32 = 0
          for _ in 0..<4 {
            guard index < scalars.count, let digit = UInt32(String(scalars[index]), radix: 16)
            else { throw fail("'\\\(escaped)' needs four hexadecimal digits") }
            value = value * 16 + digit
            index += 1
          }
          if (0xD800...0xDBFF).contains(value) {
            pendingHigh = value
            continue
          }
          if let high = pendingHigh, (0xDC00...0xDFFF).contains(value) {
            value = 0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00)
          }
          pendingHigh = nil
          guard let decoded = Unicode.Scalar(value) else {
            throw fail("'\\\(escaped)' names no character")
          }
          text.unicodeScalars.append(decoded)
        default:
          throw fail("unknown escape '\\\(escaped)'")
        }
      }
      return text
    }
  }
}
