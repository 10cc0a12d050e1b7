/// A growable buffer of bytes that records and JSON are written into before they go out.
///
/// Appends are amortized O(1) and copy with `memcpy`: a record takes a hundred small appends,
/// and `Array.append(contentsOf:)` costs several times more per call. `removeAll()` keeps the
/// capacity, so one buffer reused for every record allocates only while it grows to the
/// largest record seen. Copies share storage until one of them is written (copy on write).
// `@unchecked Sendable`: the storage is written only when uniquely referenced (copy on write), so
// a buffer behaves as a value; no two owners ever see a write.
public struct ByteBuffer: @unchecked Sendable {
  // Inlinable throughout: every tool appends to buffers a hundred times a record, from another
  // module, and a call per append costs more than the append.
  @usableFromInline final class Storage {
    @usableFromInline let pointer: UnsafeMutablePointer<UInt8>
    @usableFromInline let capacity: Int

    @usableFromInline init(capacity: Int) {
      self.capacity = Swift.max(capacity, 16)
      pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    deinit { pointer.deallocate() }

    /// New storage for at least `needed` bytes (twice this capacity, if that is more), holding
    /// a copy of the first `count` bytes of this one: how a buffer, and its `Writer`, grow.
    @usableFromInline func grown(keeping count: Int, toHold needed: Int) -> Storage {
      let fresh = Storage(capacity: Swift.max(needed, capacity * 2))
      fresh.pointer.update(from: pointer, count: count)
      return fresh
    }
  }

  @usableFromInline var storage: Storage
  @usableFromInline var length: Int

  /// The number of bytes written.
  @inlinable public var count: Int { length }

  /// The number of bytes the storage holds before it grows.
  public var capacity: Int { storage.capacity }

  /// Creates an empty buffer that can hold `capacity` bytes before it grows.
  @inlinable public init(capacity: Int = 4096) {
    storage = Storage(capacity: capacity)
    length = 0
  }

  /// Creates a buffer holding a copy of `bytes`.
  public init<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
    self.init(capacity: bytes.underestimatedCount)
    for byte in bytes { append(byte) }
  }

  /// A copy of the bytes written so far.
  public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

  /// The bytes as UTF-8 text (invalid sequences replaced).
  public var text: String { withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

  /// Calls `body` with the bytes written so far, valid only during the call.
  @inlinable public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows
    -> R
  {
    try body(UnsafeRawBufferPointer(start: storage.pointer, count: length))
  }

  /// Forgets the contents and keeps the storage.
  @inlinable public mutating func removeAll() { length = 0 }

  /// Drops everything after the first `count` bytes.
  public mutating func truncate(to count: Int) {
    precondition(count >= 0 && count <= length)
    length = count
  }

  /// Makes room for `extra` more bytes in storage of our own.
  @inlinable @inline(__always)
  mutating func reserve(_ extra: Int) {
    if _slowPath(length + extra > storage.capacity || !isKnownUniquelyReferenced(&storage)) {
      grow(length + extra)
    }
  }

  @usableFromInline mutating func grow(_ needed: Int) {
    storage = storage.grown(keeping: length, toHold: needed)
  }

  /// Appends one byte.
  @inlinable public mutating func append(_ byte: UInt8) {
    reserve(1)
    storage.pointer[length] = byte
    length += 1
  }

  /// Appends a run of bytes.
  @inlinable public mutating func append(_ raw: UnsafeRawBufferPointer) {
    guard let source = raw.baseAddress, raw.count > 0 else { return }
    reserve(raw.count)
    UnsafeMutableRawPointer(storage.pointer + length).copyMemory(from: source, byteCount: raw.count)
    length += raw.count
  }

  /// Appends the bytes of another buffer.
  @inlinable public mutating func append(_ other: ByteBuffer) {
    other.withUnsafeBytes { append($0) }
  }

  /// Appends the UTF-8 bytes of a string as they are (no JSON escaping).
  public mutating func append(utf8 string: String) {
    var string = string
    string.withUTF8 { append(UnsafeRawBufferPointer($0)) }
  }

  /// Appends the UTF-8 bytes of a literal as they are.
  @inlinable public mutating func append(_ literal: StaticString) {
    append(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  /// Appends the decimal digits of an integer.
  @inlinable public mutating func append(decimal value: Int64) {
    reserve(Self.maxDecimalLength)
    length += Self.storeDecimal(value, at: storage.pointer + length)
  }

  /// The most bytes `storeDecimal` writes: a sign and 19 digits.
  @usableFromInline static let maxDecimalLength = 20

  /// Writes the decimal digits of `value` at `target`, with a sign if it is negative; returns
  /// how many bytes they took, at most `maxDecimalLength`.
  @inlinable
  static func storeDecimal(_ value: Int64, at target: UnsafeMutablePointer<UInt8>) -> Int {
    var written = 0
    if value < 0 {
      target[0] = UInt8(ascii: "-")
      written = 1
    }
    var magnitude = value.magnitude
    var scale: UInt64 = 1
    while magnitude / scale >= 10 { scale *= 10 }
    while scale > 0 {
      target[written] = UInt8(ascii: "0") + UInt8(magnitude / scale)
      magnitude %= scale
      scale /= 10
      written += 1
    }
    return written
  }

  /// Appends `value` (0 or more) as decimal digits, zero-padded to `width`.
  @inlinable public mutating func append(digits value: Int64, width: Int) {
    reserve(width)
    var rest = value
    for position in stride(from: width - 1, through: 0, by: -1) {
      storage.pointer[length + position] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
    }
    length += width
  }

  /// Appends the 16 lowercase hex digits of `value`.
  @inlinable public mutating func append(hex value: UInt64) {
    reserve(16)
    Self.storeHex(value, at: storage.pointer + length)
    length += 16
  }

  /// Writes the 16 lowercase hex digits of `value` at `target`.
  @inlinable @inline(__always)
  static func storeHex(_ value: UInt64, at target: UnsafeMutablePointer<UInt8>) {
    let target = UnsafeMutableRawPointer(target)
    target.storeBytes(
      of: hexDigits(UInt32(truncatingIfNeeded: value >> 32)).bigEndian, as: UInt64.self)
    target.storeBytes(
      of: hexDigits(UInt32(truncatingIfNeeded: value)).bigEndian, toByteOffset: 8,
      as: UInt64.self)
  }

  /// The eight hex digits of `half`, the last in the word's lowest byte (stored big-endian,
  /// they read in order). Every record id is written with them; a digit at a time took 300
  /// instructions an id.
  @inlinable @inline(__always)
  static func hexDigits(_ half: UInt32) -> UInt64 {
    // Each nibble into a byte of its own: byte i holds nibble i.
    var nibbles = UInt64(half)
    nibbles = (nibbles | nibbles << 16) & 0x0000_FFFF_0000_FFFF
    nibbles = (nibbles | nibbles << 8) & 0x00FF_00FF_00FF_00FF
    nibbles = (nibbles | nibbles << 4) & 0x0F0F_0F0F_0F0F_0F0F
    // Then into digits, every byte at once: "0" + n, and 39 more ("a" - "0" - 10) from 10 on,
    // which is where n + 6 reaches 16. No byte carries into the next.
    let letters = ((nibbles &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
    return nibbles &+ 0x3030_3030_3030_3030 &+ letters &* 39
  }
}
