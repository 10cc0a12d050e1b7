/// Writes parsed JSON back out, compact and canonical.
///
/// Compact: no white space. Canonical: strings as `JSONEscapes` writes them, numbers exactly as
/// they were written in the input (no reformatting: `1.0` stays `1.0`, big integers keep every
/// digit), keys in the order they came. Two texts that differ only in white space and string
/// escapes come out as the same bytes.
public enum JSONWriter {
  /// Appends the value at `index` of `view`.
  ///
  /// - Complexity: O(size of the value).
  public static func writeCompact(_ view: JSONView, _ index: Int, into out: inout ByteBuffer) {
    let token = view.tokens[index]
    switch token.kind {
    case .object:
      out.append(UInt8(ascii: "{"))
      var key = index + 1
      for member in 0..<Int(token.count) {
        if member > 0 { out.append(UInt8(ascii: ",")) }
        JSONEscapes.writeCanonical(
          raw: view.rawString(key), escaped: view.tokens[key].flag, into: &out)
        out.append(UInt8(ascii: ":"))
        writeCompact(view, key + 1, into: &out)
        key = Int(view.tokens[key + 1].next)
      }
      out.append(UInt8(ascii: "}"))
    case .array:
      out.append(UInt8(ascii: "["))
      var element = index + 1
      for position in 0..<Int(token.count) {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        writeCompact(view, element, into: &out)
        element = Int(view.tokens[element].next)
      }
      out.append(UInt8(ascii: "]"))
    case .string:
      JSONEscapes.writeCanonical(raw: view.rawString(index), escaped: token.flag, into: &out)
    case .number, .bool, .null:
      out.append(view.raw(index))
    }
  }
}
