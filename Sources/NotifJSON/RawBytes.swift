import CNotifSIMD

/// Byte comparisons on raw memory, for the hot loops that match keys: the parser's expected
/// keys (`JSONParser.expectRootKeys`) and the record field lookup (`RecordFieldLocator`); and
/// the search for a pair of bytes of notif-expire's collapse survey.
public enum RawBytes {
  /// The first offset `i`, `from <= i < count - 1`, where the bytes at `i` and `i + 1` are
  /// `first` or `second`; nil when there is none. On the unit `scan` chooses: 32 offsets at a
  /// time with AVX2, 16 with SSE2 or NEON, one at a time on the scalar path, which
  /// `NOTIF_JSON_SCALAR=1` chooses for every tool (`notif_simd_find_pair`).
  @inline(__always)
  public static func firstPair(
    _ first: (UInt8, UInt8), _ second: (UInt8, UInt8), in base: UnsafeRawPointer, count: Int,
    from: Int, scan: JSONScan = .default
  ) -> Int? {
    guard from >= 0, from < count else { return nil }
    let found = notif_simd_find_pair(
      base.assumingMemoryBound(to: UInt8.self), count, from, first.0, first.1, second.0,
      second.1, scan.level)
    return found < count ? found : nil
  }

  /// Whether `length` bytes at `a` and `b` are equal: a few loads, which may overlap, and no
  /// byte read outside the two ranges.
  @inlinable @inline(__always)
  public static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ length: Int) -> Bool {
    func word<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> Bool {
      a.loadUnaligned(fromByteOffset: offset, as: T.self)
        == b.loadUnaligned(fromByteOffset: offset, as: T.self)
    }
    if length >= 8 {
      // Most keys compared are 8 to 24 bytes: two or three words, without a loop.
      if length <= 16 { return word(0, UInt64.self) && word(length &- 8, UInt64.self) }
      if length <= 24 {
        return word(0, UInt64.self) && word(8, UInt64.self) && word(length &- 8, UInt64.self)
      }
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
