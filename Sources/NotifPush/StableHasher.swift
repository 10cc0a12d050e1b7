import NotifJSON

/// The 64-bit hash behind record ids: eight bytes at a time, multiply and rotate per word, and
/// MurmurHash3's finalizer to mix the end. Not cryptographic; fixed forever, because ids made
/// with it are stored in users' inboxes (changing it would change every id).
struct StableHasher {
  private var state: UInt64 = 0x9E37_79B9_7F4A_7C15
  private var length: UInt64 = 0

  /// Mixes in a run of bytes, then a separator, so that ("ab", "c") and ("a", "bc") differ.
  mutating func combine(_ bytes: UnsafeRawBufferPointer) {
    let count = bytes.count
    var offset = 0
    var tail: UInt64 = 0
    if let base = bytes.baseAddress {
      while offset + 16 <= count {  // two words a turn: less loop for the same mixing
        mix(UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        mix(UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)))
        offset += 16
      }
      if offset + 8 <= count {
        mix(UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        offset += 8
      }
      // The last 1 to 7 bytes as a little-endian word, zero-padded: two loads that overlap
      // cover them without reading past the end, and OR joins them.
      let p = base + offset
      switch count - offset {
      case 4...7:
        let low = UInt64(UInt32(littleEndian: p.loadUnaligned(as: UInt32.self)))
        let high = UInt64(
          UInt32(littleEndian: p.loadUnaligned(fromByteOffset: count - offset - 4, as: UInt32.self))
        )
        tail = low | high << UInt64(8 * (count - offset - 4))
      case 2...3:
        let low = UInt64(UInt16(littleEndian: p.loadUnaligned(as: UInt16.self)))
        let high = UInt64(
          UInt16(littleEndian: p.loadUnaligned(fromByteOffset: count - offset - 2, as: UInt16.self))
        )
        tail = low | high << UInt64(8 * (count - offset - 2))
      case 1:
        tail = UInt64(p.load(as: UInt8.self))
      default:
        break
      }
    }
    mix(tail ^ UInt64(count - offset) << 56)
    length &+= UInt64(count)
  }

  @inline(__always)
  private mutating func mix(_ word: UInt64) {
    let k = (word &* 0x87C3_7B91_1142_53D5)
    state = ((state ^ ((k << 31) | (k >> 33))) &* 0x4CF5_AD43_2745_937F)
    state = (state << 27) | (state >> 37)
  }

  /// The hash of everything combined.
  func finalize() -> UInt64 {
    murmur3Finalize(state ^ length)
  }
}
