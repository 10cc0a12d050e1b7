/// The 64-bit hash behind record ids: eight bytes at a time, multiply and rotate per word, and
/// MurmurHash3's finalizer to mix the end. Not cryptographic; fixed forever, because ids made
/// with it are stored in users' inboxes (changing it would change every id).
struct StableHasher {
  private var state: UInt64 = 0x9E37_79B9_7F4A_7C15
  private var length: UInt64 = 0

  /// Mixes in a run of bytes, then a separator, so that ("ab", "c") and ("a", "bc") differ.
  mutating func combine(_ bytes: UnsafeRawBufferPointer) {
    var offset = 0
    while offset + 8 <= bytes.count {
      mix(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian)
      offset += 8
    }
    var tail: UInt64 = 0
    for (shift, index) in (offset..<bytes.count).enumerated() {
      tail |= UInt64(bytes[index]) << UInt64(8 * shift)
    }
    mix(tail ^ UInt64(bytes.count - offset) << 56)
    length &+= UInt64(bytes.count)
  }

  private mutating func mix(_ word: UInt64) {
    let k = (word &* 0x87C3_7B91_1142_53D5)
    state = ((state ^ ((k << 31) | (k >> 33))) &* 0x4CF5_AD43_2745_937F)
    state = (state << 27) | (state >> 37)
  }

  /// The hash of everything combined.
  func finalize() -> UInt64 {
    var h = state ^ length
    h ^= h >> 33
    h &*= 0xFF51_AFD7_ED55_8CCD
    h ^= h >> 33
    h &*= 0xC4CE_B9FE_1A85_EC53
    h ^= h >> 33
    return h
  }
}
