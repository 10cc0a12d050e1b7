/// A growable buffer of bytes that records and JSON are written into before they go out.
///
/// Appends are amortized O(1); `removeAll()` keeps the capacity, so one buffer reused for every
/// record allocates only while it grows to the largest record seen.
public struct ByteBuffer: Sendable {
  /// The bytes written so far.
  public var bytes: [UInt8]

  /// Creates an empty buffer that can hold `capacity` bytes before it grows.
  public init(capacity: Int = 4096) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  /// The number of bytes written.
  @inlinable public var count: Int { bytes.count }

  /// Forgets the contents and keeps the storage.
  public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

  /// Drops everything after the first `count` bytes.
  public mutating func truncate(to count: Int) {
    bytes.removeSubrange(count...)
  }

  /// Appends one byte.
  @inlinable public mutating func append(_ byte: UInt8) { bytes.append(byte) }

  /// Appends a run of bytes.
  @inlinable public mutating func append(_ raw: UnsafeRawBufferPointer) {
    bytes.append(contentsOf: raw)
  }

  /// Appends the bytes of another buffer.
  @inlinable public mutating func append(_ other: ByteBuffer) {
    bytes.append(contentsOf: other.bytes)
  }

  /// Appends the UTF-8 bytes of a string as they are (no JSON escaping).
  @inlinable public mutating func append(utf8 string: String) {
    bytes.append(contentsOf: string.utf8)
  }

  /// Appends the UTF-8 bytes of a literal as they are.
  @inlinable public mutating func append(_ literal: StaticString) {
    bytes.append(
      contentsOf: UnsafeRawBufferPointer(
        start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  /// Appends the decimal digits of an integer.
  public mutating func append(decimal value: Int64) {
    if value < 0 {
      bytes.append(UInt8(ascii: "-"))
    }
    var magnitude = value.magnitude
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: enough for 20 digits
    var count = 0
    withUnsafeMutableBytes(of: &digits) { raw in
      repeat {
        raw[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
        count += 1
      } while magnitude != 0
      bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[(24 - count)...]))
    }
  }
}
