import NotifJSON

/// A set of byte strings, each given a dense number (0, 1, 2, ...) the first time it is seen.
///
/// Open addressing over a power-of-two slot array; the strings live in one arena. Lookups hash
/// raw bytes and compare with `memcmp`, so the hot path builds no `String` and allocates
/// nothing once the table has grown. A class, so that the one table of a run is never copied.
final class ByteInterner {
  // Unchecked: each access to a class's `var` otherwise goes through the runtime's dynamic
  // exclusivity check, several calls an `intern` (2.7% of notif-group's instructions). Every
  // access here lasts one statement and calls nothing that touches the interner, so none can
  // overlap another; and an interner is used by one thread (each `Grouper` has its own).
  @exclusivity(unchecked) private var arena: UnsafeMutableRawPointer
  @exclusivity(unchecked) private var arenaCapacity: Int
  @exclusivity(unchecked) private var arenaCount = 0
  @exclusivity(unchecked) private var starts: [Int] = [0]
  @exclusivity(unchecked) private var hashes: [UInt64] = []
  @exclusivity(unchecked) private var slots: [Int32]
  @exclusivity(unchecked) private var mask: Int

  /// The key being built with `beginKey`/`appendKey`.
  @exclusivity(unchecked) private var key: UnsafeMutableRawPointer
  @exclusivity(unchecked) private var keyCapacity = 256
  @exclusivity(unchecked) private var keyCount = 0

  init() {
    arenaCapacity = 1 << 12
    arena = UnsafeMutableRawPointer.allocate(byteCount: arenaCapacity, alignment: 8)
    slots = Array(repeating: -1, count: 64)
    mask = 63
    key = UnsafeMutableRawPointer.allocate(byteCount: keyCapacity, alignment: 8)
  }

  deinit {
    arena.deallocate()
    key.deallocate()
  }

  /// How many distinct strings there are.
  var count: Int { hashes.count }

  /// The bytes of string `id`, valid until the next insertion.
  func bytes(_ id: Int32) -> UnsafeRawBufferPointer {
    let start = starts[Int(id)]
    return UnsafeRawBufferPointer(start: arena + start, count: starts[Int(id) + 1] - start)
  }

  /// Whether string `a` sorts before string `b` by bytes.
  func less(_ a: Int32, _ b: Int32) -> Bool {
    let x = bytes(a)
    let y = bytes(b)
    let common = min(x.count, y.count)
    if common > 0, let p = x.baseAddress, let q = y.baseAddress {
      let order = memcmp(p, q, common)
      if order != 0 { return order < 0 }
    }
    return x.count < y.count
  }

  /// The number of `bytes`, adding them if they are new; `isNew` says whether they were.
  func intern(_ bytes: UnsafeRawBufferPointer) -> (id: Int32, isNew: Bool) {
    intern(bytes, hash: Self.hash(bytes))
  }

  /// `intern`, for bytes whose `hash` is known.
  func intern(_ bytes: UnsafeRawBufferPointer, hash: UInt64) -> (id: Int32, isNew: Bool) {
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let id = slots[slot]
      if id < 0 { break }
      if hashes[Int(id)] == hash && equals(id, bytes) { return (id, false) }
      slot = (slot + 1) & mask
    }
    let id = Int32(hashes.count)
    append(bytes)
    hashes.append(hash)
    slots[slot] = id
    if hashes.count * 2 > slots.count { rehash() }
    return (id, true)
  }

  /// Adds `bytes` under a number of their own, unindexed: `intern` and `find` do not see them,
  /// and no other string may be interned after them. For `--by none`, where every record is a
  /// group of its own, whose key is kept for its `app` and `thread_id`.
  func add(_ bytes: UnsafeRawBufferPointer) -> Int32 {
    let id = Int32(hashes.count)
    append(bytes)
    hashes.append(0)
    return id
  }

  /// `add` for the key built since `beginKey`.
  func addKey() -> Int32 {
    add(UnsafeRawBufferPointer(start: key, count: keyCount))
  }

  /// The number of `bytes`, or nil when they are not in the set; adds nothing.
  func find(_ bytes: UnsafeRawBufferPointer) -> Int32? {
    let hash = Self.hash(bytes)
    var slot = Int(truncatingIfNeeded: hash) & mask
    while slots[slot] >= 0 {
      let id = slots[slot]
      if hashes[Int(id)] == hash && equals(id, bytes) { return id }
      slot = (slot + 1) & mask
    }
    return nil
  }

  /// Starts a key made of parts (`appendKey`), for `internKey`. The room a long key took is
  /// let go of: one long record would otherwise hold it for the whole run.
  func beginKey() {
    keyCount = 0
    if keyCapacity > 1 << 20 {
      key.deallocate()
      keyCapacity = 256
      key = UnsafeMutableRawPointer.allocate(byteCount: keyCapacity, alignment: 8)
    }
  }

  /// Appends a part to the key: a tag byte, the length, the bytes; so no two different lists of
  /// parts make the same key.
  func appendKey(tag: UInt8, _ bytes: UnsafeRawBufferPointer) {
    let needed = keyCount + 5 + bytes.count
    if needed > keyCapacity {
      let bigger = UnsafeMutableRawPointer.allocate(
        byteCount: max(needed, keyCapacity * 2), alignment: 8)
      bigger.copyMemory(from: key, byteCount: keyCount)
      key.deallocate()
      key = bigger
      keyCapacity = max(needed, keyCapacity * 2)
    }
    key.storeBytes(of: tag, toByteOffset: keyCount, as: UInt8.self)
    key.storeBytes(
      of: UInt32(bytes.count).littleEndian, toByteOffset: keyCount + 1, as: UInt32.self)
    if let base = bytes.baseAddress, bytes.count > 0 {
      (key + keyCount + 5).copyMemory(from: base, byteCount: bytes.count)
    }
    keyCount = needed
  }

  /// Interns the key built since `beginKey`.
  func internKey() -> (id: Int32, isNew: Bool) {
    intern(UnsafeRawBufferPointer(start: key, count: keyCount))
  }

  /// Interns the key built since `beginKey`, whose `keyHash` is `hash`.
  func internKey(hash: UInt64) -> (id: Int32, isNew: Bool) {
    intern(UnsafeRawBufferPointer(start: key, count: keyCount), hash: hash)
  }

  /// The key built since `beginKey`, valid until the next key is begun.
  var currentKey: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: key, count: keyCount)
  }

  /// The hash of the key built since `beginKey`, as `intern` hashes it.
  func keyHash() -> UInt64 {
    Self.hash(currentKey)
  }

  /// The number of the key built since `beginKey`, or nil when it is not in the set.
  func findKey() -> Int32? {
    find(UnsafeRawBufferPointer(start: key, count: keyCount))
  }

  private func equals(_ id: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    let start = starts[Int(id)]
    let length = starts[Int(id) + 1] - start
    guard length == bytes.count else { return false }
    guard length > 0, let base = bytes.baseAddress else { return true }
    return memcmp(arena + start, base, length) == 0
  }

  private func append(_ bytes: UnsafeRawBufferPointer) {
    if arenaCount + bytes.count > arenaCapacity {
      let bigger = max(arenaCapacity * 2, arenaCount + bytes.count)
      let fresh = UnsafeMutableRawPointer.allocate(byteCount: bigger, alignment: 8)
      fresh.copyMemory(from: arena, byteCount: arenaCount)
      arena.deallocate()
      arena = fresh
      arenaCapacity = bigger
    }
    if let base = bytes.baseAddress, bytes.count > 0 {
      (arena + arenaCount).copyMemory(from: base, byteCount: bytes.count)
    }
    arenaCount += bytes.count
    starts.append(arenaCount)
  }

  private func rehash() {
    let size = slots.count * 2
    slots = Array(repeating: -1, count: size)
    mask = size - 1
    for id in 0..<hashes.count {
      var slot = Int(truncatingIfNeeded: hashes[id]) & mask
      while slots[slot] >= 0 { slot = (slot + 1) & mask }
      slots[slot] = Int32(id)
    }
  }

  /// A 64-bit hash of bytes: eight at a time, multiplied and mixed, then MurmurHash3's
  /// finalizer. Not cryptographic; the output never depends on it, only the speed.
  static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
    var i = 0
    let n = bytes.count
    while i + 8 <= n {
      let word = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      h = (h ^ word) &* 0xFF51_AFD7_ED55_8CCD
      h ^= h >> 29
      i += 8
    }
    if i < n {
      var word: UInt64 = 0
      var shift: UInt64 = 0
      while i < n {
        word |= UInt64(bytes[i]) << shift
        shift += 8
        i += 1
      }
      h = (h ^ word) &* 0xFF51_AFD7_ED55_8CCD
    }
    return murmur3Finalize(h)
  }
}
