import NotifJSON

/// The ids of `--id` and `--ids-from`, held compactly: their bytes one after another, and an
/// open-addressing table of where each one is, so that a million ids cost their bytes and 16
/// bytes each, and a lookup by a record's raw bytes allocates nothing.
struct IDSet: Equatable {
  /// Every id's bytes, one after another.
  private var bytes: [UInt8] = []
  /// Where each id is in `bytes`, at the slot its hash picks (or the next free one); a count
  /// of -1 marks a free slot. Never more than half full.
  private var slots: [(start: Int64, count: Int64)] = Array(repeating: (0, -1), count: 16)
  /// How many ids there are.
  private(set) var count = 0
  /// How many bytes the ids take.
  var byteCount: Int { bytes.count }

  static func == (a: IDSet, b: IDSet) -> Bool {
    a.count == b.count && a.allIDs().allSatisfy { b.contains($0) }
  }

  /// Adds `id` (its bytes), if it is not there yet.
  ///
  /// - Complexity: O(id length), amortized.
  mutating func insert<Bytes: Collection<UInt8>>(_ id: Bytes) {
    let id = Array(id)
    guard !id.withUnsafeBytes({ contains($0) }) else { return }
    if (count + 1) * 2 > slots.count { grow() }
    let start = Int64(bytes.count)
    bytes += id
    place((start, Int64(id.count)))
    count += 1
  }

  /// Whether `id` is one of the ids.
  ///
  /// - Complexity: O(id length) expected.
  func contains(_ id: UnsafeRawBufferPointer) -> Bool { slot(of: id) != nil }

  /// Where `id` is, if it is one of the ids: a number below `slotCount`, the same for the same
  /// id as long as no id is added, for `ids(notIn:)`.
  ///
  /// - Complexity: O(id length) expected.
  func slot(of id: UnsafeRawBufferPointer) -> Int? {
    var slot = Self.hash(id) & (slots.count - 1)
    while slots[slot].count >= 0 {
      if equals(slots[slot], id) { return slot }
      slot = (slot + 1) & (slots.count - 1)
    }
    return nil
  }

  /// Where `id` (bytes) is, if it is one of the ids.
  func slot(of id: [UInt8]) -> Int? { id.withUnsafeBytes { slot(of: $0) } }

  /// The number of places `slot(of:)` answers below.
  var slotCount: Int { slots.count }

  /// The ids whose places are not marked in `found` (`slotCount` of them), in the order they
  /// were added.
  ///
  /// - Complexity: O(`slotCount` + m log m) for m ids not found.
  func ids(notIn found: [Bool]) -> [[UInt8]] {
    slots.indices.filter { slots[$0].count >= 0 && !found[$0] }
      .map { slots[$0] }
      .sorted { $0.start < $1.start }
      .map { Array(bytes[Int($0.start)..<Int($0.start + $0.count)]) }
  }

  /// Whether `id` (bytes) is one of the ids.
  func contains(_ id: [UInt8]) -> Bool { id.withUnsafeBytes { contains($0) } }

  private func equals(_ entry: (start: Int64, count: Int64), _ id: UnsafeRawBufferPointer) -> Bool {
    guard entry.count == Int64(id.count) else { return false }
    return bytes.withUnsafeBytes { all in
      guard let base = all.baseAddress, let other = id.baseAddress else { return id.isEmpty }
      return memcmp(base + Int(entry.start), other, id.count) == 0
    }
  }

  private mutating func place(_ entry: (start: Int64, count: Int64)) {
    let id = bytes.withUnsafeBytes {
      Self.hash(
        UnsafeRawBufferPointer(rebasing: $0[Int(entry.start)..<Int(entry.start + entry.count)]))
    }
    var slot = id & (slots.count - 1)
    while slots[slot].count >= 0 { slot = (slot + 1) & (slots.count - 1) }
    slots[slot] = entry
  }

  private mutating func grow() {
    let old = slots
    slots = Array(repeating: (0, -1), count: old.count * 2)
    for entry in old where entry.count >= 0 { place(entry) }
  }

  private func allIDs() -> [[UInt8]] {
    slots.filter { $0.count >= 0 }.map { Array(bytes[Int($0.start)..<Int($0.start + $0.count)]) }
  }

  private static func hash(_ id: UnsafeRawBufferPointer) -> Int {
    var hasher = Hasher()
    hasher.combine(bytes: id)
    return hasher.finalize()
  }
}
