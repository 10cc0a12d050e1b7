import NotifJSON
import NotifModel

/// A digest's `digest_id`: the same digest always gets the same id, on every run and machine.
///
/// It is the sum, modulo 2^128, of a hash of each member's `id` and a hash of the digest's
/// frame (its key and window), written as 32 lowercase hexadecimal digits. The hash is
/// SipHash-2-4 with 128-bit output and the key 00 01 02 ... 0f (the reference implementation's
/// test key: anyone can compute it). A sum needs no list of the members, so a digest's id is
/// kept as it grows, in memory bounded by the open windows; and digests merge exactly: the
/// members' part of each is its id less its frame's hash. Not a cryptographic commitment: it
/// tells a digest sent twice from two different digests.
struct DigestID: Hashable, Sendable, Comparable {
  var value: UInt128

  static func < (a: DigestID, b: DigestID) -> Bool { a.value < b.value }

  /// The members' part of a digest of no member.
  static let zero = DigestID(value: 0)

  /// Adds a member, by its hash (`member(_:)`).
  mutating func add(memberHash: UInt128) {
    value &+= memberHash
  }

  /// What a member adds to the sum: the hash of its id's bytes.
  static func member(_ id: UnsafeRawBufferPointer) -> UInt128 {
    SipHash128.hash(id)
  }

  /// The id of a digest whose members sum to `self`, with `frame`.
  func adding(_ frame: UInt128) -> DigestID { DigestID(value: value &+ frame) }

  /// The members' part of the id `self` of a digest with `frame`.
  func removing(_ frame: UInt128) -> DigestID { DigestID(value: value &- frame) }

  /// The hash of a digest's frame: its key (the `key` object as written, compact, its values
  /// canonical) and window.
  static func frame(key: UnsafeRawBufferPointer, window: DigestWindow) -> UInt128 {
    var text = ByteBuffer(capacity: 64 + key.count)
    text.append("notif-digest\u{0}")
    text.append(key)
    text.append(UInt8(0))
    window.start.write(into: &text)
    text.append(UInt8(0))
    window.end.write(into: &text)
    return text.withUnsafeBytes { SipHash128.hash($0) }
  }

  /// Appends the 32 hexadecimal digits, most significant first.
  func write(into out: inout ByteBuffer) {
    let digits = Array("0123456789abcdef".utf8)
    for shift in stride(from: 124, through: 0, by: -4) {
      out.append(digits[Int((value >> UInt128(shift)) & 0xF)])
    }
  }

  var hex: String {
    var out = ByteBuffer(capacity: 32)
    write(into: &out)
    return out.text
  }

  /// Reads 32 lowercase hexadecimal digits.
  init?(hex raw: UnsafeRawBufferPointer) {
    guard raw.count == 32 else { return nil }
    var value: UInt128 = 0
    for byte in raw {
      let digit: UInt8
      switch byte {
      case 0x30...0x39: digit = byte - 0x30
      case 0x61...0x66: digit = byte - 0x61 + 10
      default: return nil
      }
      value = value << 4 | UInt128(digit)
    }
    self.value = value
  }

  init(value: UInt128) { self.value = value }
}

/// SipHash-2-4 with 128-bit output (Aumasson and Bernstein, the reference implementation's
/// `siphash` with `outlen` 16), keyed with the bytes 00 to 0f.
enum SipHash128 {
  static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt128 {
    let k0: UInt64 = 0x0706_0504_0302_0100
    let k1: UInt64 = 0x0f0e_0d0c_0b0a_0908
    var v0: UInt64 = 0x736f_6d65_7073_6575 ^ k0
    var v1: UInt64 = 0x646f_7261_6e64_6f6d ^ k1 ^ 0xee
    var v2: UInt64 = 0x6c79_6765_6e65_7261 ^ k0
    var v3: UInt64 = 0x7465_6462_7974_6573 ^ k1
    @inline(__always) func round() {
      v0 &+= v1
      v1 = v1.rotatedLeft(13) ^ v0
      v0 = v0.rotatedLeft(32)
      v2 &+= v3
      v3 = v3.rotatedLeft(16) ^ v2
      v0 &+= v3
      v3 = v3.rotatedLeft(21) ^ v0
      v2 &+= v1
      v1 = v1.rotatedLeft(17) ^ v2
      v2 = v2.rotatedLeft(32)
    }
    let count = bytes.count
    let whole = count & ~7
    var offset = 0
    while offset < whole {
      let m = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      v3 ^= m
      round()
      round()
      v0 ^= m
      offset += 8
    }
    var last = UInt64(truncatingIfNeeded: count) << 56
    for index in whole..<count {
      last |= UInt64(bytes[index]) << UInt64(8 * (index - whole))
    }
    v3 ^= last
    round()
    round()
    v0 ^= last
    v2 ^= 0xee
    for _ in 0..<4 { round() }
    let low = v0 ^ v1 ^ v2 ^ v3
    v1 ^= 0xdd
    for _ in 0..<4 { round() }
    let high = v0 ^ v1 ^ v2 ^ v3
    return UInt128(high) << 64 | UInt128(low)
  }
}

extension UInt64 {
  @inline(__always) fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 {
    self << count | self >> (64 - count)
  }
}
