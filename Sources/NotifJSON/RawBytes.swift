/// Byte comparisons on raw memory, for the hot loops that match keys: the parser's expected
/// keys (`JSONParser.expectRootKeys`) and the record field lookup (`RecordFieldLocator`).
public enum RawBytes {
  /// Whether `length` bytes at `a` and `b` are equal: a few loads, which may overlap, and no
  /// byte read outside the two ranges.
  @inline(__always)
  public static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ length: Int) -> Bool {
    func word<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> Bool {
      a.loadUnaligned(fromByteOffset: offset, as: T.self)
        == b.loadUnaligned(fromByteOffset: offset, as: T.self)
    }
    if length >= 8 {
      var offset = 0
      while offset + 8 < length {
        guard word(offset, UInt64.self) else { return false }
        offset += 8
      }
      return word(length - 8, UInt64.self)
    }
    if length >= 4 { return word(0, UInt32.self) && word(length - 4, UInt32.self) }
    if length >= 2 { return word(0, UInt16.self) && word(length - 2, UInt16.self) }
    return length == 0 || word(0, UInt8.self)
  }
}
