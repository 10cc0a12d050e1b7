import NotifJSON
import NotifModel

/// The quarantine file's line format (`--quarantine`): one JSON object per line that was not a
/// record, so the file is NDJSON and loses nothing.
///
/// `{"line":N,"code":"CODE","reason":"MESSAGE","text":"LINE"}`: the line's 1-based number in
/// its input, the diagnostic's code and message, and the line's bytes (without its newline) as
/// a JSON string. A line that is not valid UTF-8 has `"base64":"..."` (RFC 4648, padded)
/// instead of `"text"`, since a JSON string cannot hold it.
public enum QuarantineEntry {
  /// Appends the quarantine line of `line`, with its newline, to `out`.
  public static func write(
    line: UnsafeRawBufferPointer, number: Int, code: String, reason: String,
    into out: inout ByteBuffer
  ) {
    out.append("{\"line\":")
    out.append(decimal: Int64(number))
    out.append(",\"code\":")
    JSONEscapes.writeString(code, into: &out)
    out.append(",\"reason\":")
    JSONEscapes.writeString(reason, into: &out)
    if String(validating: line, as: UTF8.self) != nil {
      out.append(",\"text\":\"")
      JSONEscapes.appendEscaped(line, into: &out)
      out.append("\"}\n")
    } else {
      out.append(",\"base64\":\"")
      appendBase64(line, into: &out)
      out.append("\"}\n")
    }
  }

  static let alphabet: [UInt8] = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  static func appendBase64(_ bytes: UnsafeRawBufferPointer, into out: inout ByteBuffer) {
    var i = 0
    while i < bytes.count {
      let count = min(3, bytes.count - i)
      var group: UInt32 = 0
      for k in 0..<3 { group = group << 8 | UInt32(k < count ? bytes[i + k] : 0) }
      for k in 0..<4 {
        if k <= count {
          out.append(alphabet[Int(group >> UInt32(18 - 6 * k) & 0x3F)])
        } else {
          out.append(UInt8(ascii: "="))
        }
      }
      i += 3
    }
  }
}
