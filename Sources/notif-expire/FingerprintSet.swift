/// Which keys occur more than once, in 4 bytes per distinct key: the first pass of collapse.
///
/// Keys are reduced to 32-bit fingerprints (`KeyHash.fingerprint`) in an open-addressing
/// table. Two keys that share a fingerprint are both taken to repeat; that costs only an exact
/// look at them in the next pass, never a wrong answer, so a small fingerprint keeps memory
/// flat: a million distinct collapse keys take 8 MB at most, while the table doubles.
struct FingerprintSet {
  private var slots: [UInt32]
  private var repeated: [UInt64]  // one bit per slot
  private var count = 0
  /// How many fingerprints were inserted more than once.
  private(set) var repeatedCount = 0

  init() {
    slots = Array(repeating: 0, count: 1024)
    repeated = Array(repeating: 0, count: 1024 / 64)
  }

  /// Adds a fingerprint; marks it repeated when it was there already.
  mutating func insert(_ fingerprint: UInt32) {
    if (count + 1) * 4 > slots.count * 3 { grow() }
    let slot = find(fingerprint)
    if slots[slot] == fingerprint {
      let bit: UInt64 = 1 << UInt64(slot & 63)
      if repeated[slot >> 6] & bit == 0 {
        repeated[slot >> 6] |= bit
        repeatedCount += 1
      }
    } else {
      slots[slot] = fingerprint
      count += 1
    }
  }

  /// Whether a fingerprint was inserted more than once.
  func isRepeated(_ fingerprint: UInt32) -> Bool {
    let slot = find(fingerprint)
    return slots[slot] == fingerprint && repeated[slot >> 6] & (1 << UInt64(slot & 63)) != 0
  }

  /// The slot that holds `fingerprint`, or the empty slot where it would go.
  private func find(_ fingerprint: UInt32) -> Int {
    let mask = slots.count - 1
    var slot = Int(fingerprint &* 0x9E37_79B1) & mask
    while slots[slot] != 0 && slots[slot] != fingerprint {
      slot = (slot + 1) & mask
    }
    return slot
  }

  private mutating func grow() {
    let old = slots
    let oldRepeated = repeated
    slots = Array(repeating: 0, count: old.count * 2)
    repeated = Array(repeating: 0, count: old.count * 2 / 64)
    for (index, fingerprint) in old.enumerated() where fingerprint != 0 {
      let slot = find(fingerprint)
      slots[slot] = fingerprint
      if oldRepeated[index >> 6] & (1 << UInt64(index & 63)) != 0 {
        repeated[slot >> 6] |= 1 << UInt64(slot & 63)
      }
    }
  }
}

/// A 128-bit hash of a key's bytes: the key of the per-key tables of collapse and caps.
///
/// Holding 16 bytes instead of the key keeps memory small and flat per key; two different keys
/// share a `KeyHash` with a chance of about 2^-128 per pair, which is nil in practice.
struct KeyHash: Hashable {
  var high: UInt64
  var low: UInt64

  init(_ bytes: [UInt8]) {
    var a: UInt64 = 0xCBF2_9CE4_8422_2325
    var b: UInt64 = 0x6A09_E667_F3BC_C909
    for byte in bytes {
      a = (a ^ UInt64(byte)) &* 0x100_0000_01B3
      b = (b &+ UInt64(byte)) &* 0x9E37_79B9_7F4A_7C15
      b ^= b >> 31
    }
    high = Self.mix(a ^ UInt64(bytes.count))
    low = Self.mix(b &+ high)
  }

  /// 32 bits of the hash, never 0 (which marks an empty slot of a `FingerprintSet`).
  var fingerprint: UInt32 {
    let folded = UInt32(truncatingIfNeeded: low ^ (low >> 32))
    return folded == 0 ? 1 : folded
  }

  static func mix(_ value: UInt64) -> UInt64 {
    var h = value
    h = (h ^ (h >> 30)) &* 0xBF58_476D_1CE4_E5B9
    h = (h ^ (h >> 27)) &* 0x94D0_49BB_1331_11EB
    return h ^ (h >> 31)
  }
}
