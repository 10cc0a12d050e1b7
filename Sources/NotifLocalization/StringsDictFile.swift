#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads a `.stringsdict` file (an XML or binary property list) with the toolchain's
/// `PropertyListDecoder`: each key maps to a dictionary with `NSStringLocalizedFormatKey` and
/// one dictionary per plural variable (`NSStringFormatSpecTypeKey` = `NSStringPluralRuleType`,
/// `NSStringFormatValueTypeKey`, and the variants `zero one two few many other`).
///
/// `PropertyListDecoder` says only that a text is not a valid property list, and its line
/// numbers are not reliable; lines in messages come from our own look at the text: the first
/// tag that does not nest, or the `<key>` of the entry or variable at fault.
enum StringsDictFile {
  /// Any property list value, as much as a `.stringsdict` needs.
  enum Value: Decodable {
    case string(String)
    case dictionary([String: Value])
    case other

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let text = try? container.decode(String.self) {
        self = .string(text)
      } else if let dictionary = try? container.decode([String: Value].self) {
        self = .dictionary(dictionary)
      } else {
        self = .other
      }
    }
  }

  static func load(_ path: String) throws(StringsError) -> [String: LocalizedEntry] {
    let bytes = try LocalizedStrings.readFile(path)
    let root: Value
    do {
      root = try PropertyListDecoder().decode(Value.self, from: Data(bytes))
    } catch {
      let found = XMLShape.firstProblem(bytes)
      throw StringsError(
        file: path, line: found.line, message: "not a valid property list: \(found.problem)",
        column: found.column)
    }
    let text = String(decoding: bytes, as: UTF8.self)
    func line(ofKey key: String, after: String.Index? = nil) -> (Int?, String.Index?) {
      XMLShape.line(ofKey: key, in: text, after: after)
    }
    guard case .dictionary(let entries) = root else {
      throw StringsError(
        file: path, line: 1, message: "a .stringsdict file is a dictionary of localized keys")
    }
    var result: [String: LocalizedEntry] = [:]
    for key in entries.keys.sorted() {
      let (entryLine, entryAt) = line(ofKey: key)
      guard case .dictionary(let fields) = entries[key] else {
        throw StringsError(
          file: path, line: entryLine, message: "entry '\(key)' must be a dictionary")
      }
      guard case .string(let format) = fields["NSStringLocalizedFormatKey"] else {
        throw StringsError(
          file: path, line: entryLine,
          message: "entry '\(key)' has no NSStringLocalizedFormatKey string")
      }
      var entry = LocalizedEntry(format: format, file: path, line: entryLine)
      for name in fields.keys.sorted() where name != "NSStringLocalizedFormatKey" {
        let (variableLine, _) = line(ofKey: name, after: entryAt)
        guard case .dictionary(let variable) = fields[name] else {
          throw StringsError(
            file: path, line: variableLine,
            message: "variable '\(name)' of '\(key)' must be a dictionary")
        }
        guard case .string("NSStringPluralRuleType") = variable["NSStringFormatSpecTypeKey"] else {
          throw StringsError(
            file: path, line: variableLine,
            message:
              "variable '\(name)' of '\(key)': NSStringFormatSpecTypeKey must be NSStringPluralRuleType"
          )
        }
        var variants: [PluralCategory: String] = [:]
        for category in PluralCategory.allCases {
          switch variable[category.rawValue] {
          case .string(let text): variants[category] = text
          case nil: break
          default:
            throw StringsError(
              file: path, line: variableLine,
              message: "variant '\(category.rawValue)' of '\(name)' in '\(key)' must be a string")
          }
        }
        guard variants[.other] != nil else {
          throw StringsError(
            file: path, line: variableLine,
            message: "variable '\(name)' of '\(key)' has no 'other' variant")
        }
        entry.variables[name] = variants
      }
      result[key] = entry
    }
    return result
  }
}

/// Just enough of XML to say where a property list goes wrong.
enum XMLShape {
  /// The line of the first tag that does not nest, or of the end if one stays open, or the
  /// line and column (in Unicode scalars) of the first reference that names no character:
  /// whichever comes first.
  static func firstProblem(_ bytes: [UInt8]) -> (line: Int, column: Int?, problem: String) {
    var line = 1
    var lineStart = 0
    var stack: [(String, Int)] = []
    var index = 0
    if bytes.starts(with: Array("bplist".utf8)) {
      return (1, nil, "a damaged binary property list")
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x0A {
        line += 1
        lineStart = index + 1
      }
      if byte == UInt8(ascii: "&"), let problem = badReference(bytes, at: index) {
        // Columns count Unicode scalars: every byte but UTF-8 continuation bytes.
        let column = 1 + bytes[lineStart..<index].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return (line, column, problem)
      }
      guard byte == UInt8(ascii: "<") else {
        index += 1
        continue
      }
      let tagLine = line
      var end = index + 1
      while end < bytes.count && bytes[end] != UInt8(ascii: ">") {
        if bytes[end] == 0x0A {
          line += 1
          lineStart = end + 1
        }
        end += 1
      }
      guard end < bytes.count else { return (tagLine, nil, "a tag is not closed with '>'") }
      let body = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
      index = end + 1
      if body.hasPrefix("?") || body.hasPrefix("!") { continue }
      if body.hasSuffix("/") { continue }
      if body.hasPrefix("/") {
        let name = String(body.dropFirst()).trimmedName
        guard let open = stack.popLast() else {
          return (tagLine, nil, "closing tag '</\(name)>' has no opening tag")
        }
        guard open.0 == name else {
          return (
            tagLine, nil, "closing tag '</\(name)>' does not match '<\(open.0)>' of line \(open.1)"
          )
        }
      } else {
        stack.append((body.trimmedName, tagLine))
      }
    }
    if let open = stack.last {
      return (line, nil, "'<\(open.0)>' of line \(open.1) is never closed")
    }
    return (1, nil, "not an XML property list of dictionaries and strings")
  }

  /// What is wrong with the reference that starts at `bytes[start]` (an `&`), or nil when it
  /// is one XML allows: `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, or `&#N;` and `&#xH;`
  /// naming a character XML allows (not U+0000, a surrogate, U+FFFE or U+FFFF).
  static func badReference(_ bytes: [UInt8], at start: Int) -> String? {
    var end = start + 1
    while end < bytes.count, end - start <= 32, bytes[end] != UInt8(ascii: ";"),
      bytes[end] != UInt8(ascii: "&"), bytes[end] != UInt8(ascii: "<"), bytes[end] > 0x20
    {
      end += 1
    }
    guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
      let shown = String(decoding: bytes[start..<min(end, bytes.count)], as: UTF8.self)
      return "'\(shown)' is not a reference: write '&amp;' for '&'"
    }
    let name = String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
    let reference = "'&\(name);'"
    if ["amp", "lt", "gt", "quot", "apos"].contains(name) { return nil }
    guard name.hasPrefix("#") else {
      return "unknown entity \(reference): a property list knows only &amp; &lt; &gt; &quot; &apos;"
    }
    let hex = name.hasPrefix("#x")
    let digits = name.dropFirst(hex ? 2 : 1)
    guard !digits.isEmpty,
      digits.allSatisfy({ $0.isASCII && (hex ? $0.isHexDigit : $0.isNumber) }),
      let value = UInt32(digits, radix: hex ? 16 : 10)
    else {
      return
        "bad character reference \(reference): write '&#' and decimal digits or '&#x' and hex digits, then ';'"
    }
    switch value {
    case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return nil
    default: return "bad character reference \(reference): it names no character XML allows"
    }
  }

  /// The line of the first `<key>name</key>` at or after `after`, and where it ends.
  static func line(ofKey key: String, in text: String, after: String.Index?) -> (
    Int?, String.Index?
  ) {
    var escaped = ""
    for scalar in key.unicodeScalars {
      switch scalar {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    let needle = Array("<key>\(escaped)</key>".utf8)
    let utf8 = Array(text.utf8)
    let startOffset = after.map { text.utf8.distance(from: text.startIndex, to: $0) } ?? 0
    guard needle.count <= utf8.count else { return (nil, nil) }
    var index = startOffset
    while index + needle.count <= utf8.count {
      if utf8[index] == needle[0] && Array(utf8[index..<(index + needle.count)]) == needle {
        let line = 1 + utf8[0..<index].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        return (line, text.utf8.index(text.startIndex, offsetBy: index + needle.count))
      }
      index += 1
    }
    return (nil, nil)
  }
}

extension String {
  /// A tag's name: up to the first space.
  fileprivate var trimmedName: String {
    String(prefix { $0 != " " && $0 != "\t" && $0 != "\n" && $0 != "\r" })
  }
}
