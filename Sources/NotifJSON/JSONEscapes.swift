/// Decoding and encoding of JSON string contents.
///
/// Output strings are written in one canonical form: UTF-8 as is, with only `"`, `\` and the
/// control characters U+0000 to U+001F escaped (`\n`, `\t`, `\r`, `\b`, `\f`, else `\u00XX`).
public enum JSONEscapes {
  /// Appends the decoded bytes of already validated raw string contents (between the quotes).
  ///
  /// - Complexity: O(n).
  public static func unescape(_ raw: UnsafeRawBufferPointer, into out: inout ByteBuffer) {
    var i = 0
    let n = raw.count
    while i < n {
      let byte = raw[i]
      if byte != UInt8(ascii: "\\") {
        var j = i + 1
        while j < n && raw[j] != UInt8(ascii: "\\") { j += 1 }
        out.append(UnsafeRawBufferPointer(rebasing: raw[i..<j]))
        i = j
        continue
      }
      let escape = raw[i + 1]
      i += 2
      switch escape {
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "u"):
        var scalar = hex4(raw, i)
        i += 4
        if scalar >= 0xD800 && scalar < 0xDC00 {
          // The parser has checked that a low surrogate escape follows.
          let low = hex4(raw, i + 2)
          i += 6
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        appendUTF8(scalar, into: &out)
      default: out.append(escape)  // `"`, `\`, `/`
      }
    }
  }

  /// Appends `raw` string contents (validated, between the quotes) as a quoted JSON string in
  /// canonical form.
  public static func writeCanonical(
    raw: UnsafeRawBufferPointer, escaped: Bool, into out: inout ByteBuffer
  ) {
    out.append(UInt8(ascii: "\""))
    if escaped {
      var decoded = ByteBuffer(capacity: raw.count)
      unescape(raw, into: &decoded)
      decoded.withUnsafeBytes { appendEscaped($0, into: &out) }
    } else {
      out.append(raw)  // no backslash and, being valid, no control character: already canonical
    }
    out.append(UInt8(ascii: "\""))
  }

  /// Appends `text` as a quoted JSON string in canonical form.
  public static func writeString(_ text: String, into out: inout ByteBuffer) {
    out.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { appendEscaped(UnsafeRawBufferPointer($0), into: &out) }
    out.append(UInt8(ascii: "\""))
  }

  /// Appends decoded UTF-8 bytes, escaping what JSON requires.
  public static func appendEscaped(_ bytes: UnsafeRawBufferPointer, into out: inout ByteBuffer) {
    var runStart = 0
    for (i, byte) in bytes.enumerated()
    where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
      out.append(UnsafeRawBufferPointer(rebasing: bytes[runStart..<i]))
      runStart = i + 1
      out.append(UInt8(ascii: "\\"))
      switch byte {
      case 0x0A: out.append(UInt8(ascii: "n"))
      case 0x09: out.append(UInt8(ascii: "t"))
      case 0x0D: out.append(UInt8(ascii: "r"))
      case 0x08: out.append(UInt8(ascii: "b"))
      case 0x0C: out.append(UInt8(ascii: "f"))
      case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
      default:
        out.append("u00")
        out.append(hexDigits[Int(byte >> 4)])
        out.append(hexDigits[Int(byte & 0xF)])
      }
    }
    out.append(UnsafeRawBufferPointer(rebasing: bytes[runStart...]))
  }

  static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

  static func hex4(_ raw: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
    var value: UInt32 = 0
    for k in at..<at + 4 {
      value = value << 4 | UInt32(hexValue(raw[k]))
    }
    return value
  }

  @inline(__always) static func hexValue(_ byte: UInt8) -> UInt8 {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return 0xFF
    }
  }

  static func appendUTF8(_ scalar: UInt32, into out: inout ByteBuffer) {
    switch scalar {
    case ..<0x80:
      out.append(UInt8(scalar))
    case ..<0x800:
      out.append(UInt8(0xC0 | scalar >> 6))
      out.append(UInt8(0x80 | scalar & 0x3F))
    case ..<0x10000:
      out.append(UInt8(0xE0 | scalar >> 12))
      out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      out.append(UInt8(0x80 | scalar & 0x3F))
    default:
      out.append(UInt8(0xF0 | scalar >> 18))
      out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      out.append(UInt8(0x80 | scalar & 0x3F))
    }
  }
}
