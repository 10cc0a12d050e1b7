import NotifJSON
import NotifModel

/// The quarantine file's line format (`--quarantine`): one JSON object per line that was not a
/// record, so the file is NDJSON and loses nothing.
///
/// `{"line":N,"code":"CODE","reason":"MESSAGE","text":"LINE"}`: the line's 1-based number in
/// its input, the diagnostic's code and message, and the line's bytes (without its newline) as
/// a JSON string. A line that is not valid UTF-8 has `"base64":"..."` (RFC 4648, padded)
/// instead of `"text"`, since a JSON string cannot hold it, and so has every line longer than
/// `--max-record-bytes` (`Streamed`), which is written as it is read.
public enum QuarantineEntry {
  /// Appends the quarantine line of `line`, with its newline, to `out`.
  public static func write(
    line: UnsafeRawBufferPointer, number: Int, code: String, reason: String,
    into out: inout ByteBuffer
  ) {
    writeHead(number: number, code: code, reason: reason, into: &out)
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

  /// Appends what every entry starts with: `{"line":N,"code":"...","reason":"..."`.
  static func writeHead(number: Int, code: String, reason: String, into out: inout ByteBuffer) {
    out.append("{\"line\":")
    out.append(decimal: Int64(number))
    out.append(",\"code\":")
    JSONEscapes.writeString(code, into: &out)
    out.append(",\"reason\":")
    JSONEscapes.writeString(reason, into: &out)
  }

  /// The quarantine line of a line too long to hold in memory (longer than
  /// `--max-record-bytes`), written as its parts come: its bytes always in `"base64"`, since
  /// whether a line is valid UTF-8 is known only at its end.
  public struct Streamed {
    /// The 0 to 2 bytes of the parts so far that do not yet fill a group of three.
    private var carry: [UInt8] = []

    /// Starts the entry of line `number`: appends everything before its bytes to `out`.
    public init(number: Int, code: String, reason: String, into out: inout ByteBuffer) {
      QuarantineEntry.writeHead(number: number, code: code, reason: reason, into: &out)
      out.append(",\"base64\":\"")
    }

    /// Appends the base64 of the next part of the line to `out`.
    public mutating func append(_ part: UnsafeRawBufferPointer, into out: inout ByteBuffer) {
      var from = 0
      if !carry.isEmpty {
        while carry.count < 3 && from < part.count {
          carry.append(part[from])
          from += 1
        }
        guard carry.count == 3 else { return }
        carry.withUnsafeBytes { appendBase64($0, into: &out) }
        carry.removeAll()
      }
      let whole = (part.count - from) / 3 * 3
      appendBase64(UnsafeRawBufferPointer(rebasing: part[from..<from + whole]), into: &out)
      carry.append(contentsOf: part[(from + whole)...])
    }

    /// Ends the entry: the last bytes, padded, and the end of the line.
    public mutating func finish(into out: inout ByteBuffer) {
      carry.withUnsafeBytes { appendBase64($0, into: &out) }
      carry.removeAll()
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
