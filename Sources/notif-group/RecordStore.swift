import NotifJSON

/// The leading records of a grouper's groups, compact, side by side in blocks of a megabyte: a
/// group holds a `Slot` (16 bytes) where an array per group would cost its header and malloc's
/// rounding besides (about 50 bytes, a fifth of what the rest of a group costs).
///
/// Past `memoryLimit` bytes of records (the run's budget, `RecordFiles.memoryBudget`, shared
/// by its workers), a record read from a regular file, where its text is already compact, is
/// not copied: its slot says where it is in the file (`RecordFiles`), and
/// `read` reads it back when its group object is written. So a million groups cost their
/// state, not a kilobyte each more; fewer groups never read a file twice.
///
/// Room is taken in steps of 16 bytes. The room of a released record (a leader replaced by a
/// longer one) is a hole, kept on a list by its size and taken again by the next record that
/// fits it within three steps; holes never taken (`garbage`) are left behind when the grouper
/// copies the live records into a new store (`Grouper.compactRecords`). A record longer than a
/// quarter block gets a block of its own, freed when it is released. A class, so that the one
/// store of a grouper is never copied.
final class RecordStore {
  /// Where a record is: its block and offset, its length, and its room; or, in a file, its
  /// place there (`RecordFiles.place`), its length, and its check with the sign bit set.
  struct Slot {
    fileprivate var position: Int
    fileprivate var capacity: Int32
    var count: Int32

    /// No record: zero bytes, stored nowhere.
    static let empty = Slot(position: 0, capacity: 0, count: 0)

    /// Whether the record is in a file, not in memory.
    var isInFile: Bool { capacity < 0 }
  }

  /// The files a slot may point into; nil when no record is left in one.
  let files: RecordFiles?
  /// The bytes of records kept in memory before those in a file stay there.
  let memoryLimit: Int
  /// How many stores share the budget: one per worker with `--jobs`.
  let shares: Int

  init(files: RecordFiles?, shares: Int = 1) {
    let shares = max(shares, 1)
    self.files = files
    self.shares = shares
    memoryLimit = files.map { $0.memoryBudget / shares } ?? .max
  }

  private var blocks: [UnsafeMutableRawPointer?] = []
  /// The next free byte of the last shared block, and how many are left there.
  private var block = -1
  private var used = 0
  private var left = 0
  /// Per room size in steps, the position of the first hole of that size, or -1; a hole holds
  /// the position of the next.
  private var holes = [Int](repeating: -1, count: shared / step + 1)
  /// The bytes of the records stored and not released, and of the holes.
  private(set) var live = 0
  private(set) var garbage = 0

  static let blockSize = 1 << 20
  private static let shared = blockSize / 4
  private static let step = 16

  deinit {
    for block in blocks { block?.deallocate() }
  }

  /// The bytes of the record in `slot`, which is in memory, valid until it is released.
  func bytes(_ slot: Slot) -> UnsafeRawBufferPointer {
    precondition(!slot.isInFile, "RecordStore.bytes: the record is in a file")
    return UnsafeRawBufferPointer(start: address(slot.position), count: Int(slot.count))
  }

  /// Calls `body` with the bytes of the record in `slot`: where they are in memory, or read
  /// back from their file into memory of their own for the call.
  ///
  /// - Throws: `SystemError` when the file cannot be read, or holds something else now.
  func read<R>(_ slot: Slot, _ body: (UnsafeRawBufferPointer) throws(SystemError) -> R)
    throws(SystemError) -> R
  {
    guard slot.isInFile, let files else { return try body(bytes(slot)) }
    let count = Int(slot.count)
    let room = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 8)
    defer { room.deallocate() }
    try files.read(
      slot.position, count: count,
      check: Int32(bitPattern: UInt32(bitPattern: slot.capacity) & 0x7FFF_FFFF),
      into: room)
    return try body(UnsafeRawBufferPointer(start: room, count: count))
  }

  /// A slot for a record that is at `place` in a file, whose text `bytes` is: nil while the
  /// records in memory are fewer than `memoryLimit` bytes (or there is no place, or no file).
  private func fileSlot(_ bytes: UnsafeRawBufferPointer, at place: Int?) -> Slot? {
    guard let place, files != nil, live >= memoryLimit, bytes.count > 0 else { return nil }
    let check = UInt32(bitPattern: RecordFiles.check(bytes)) | 0x8000_0000
    return Slot(position: place, capacity: Int32(bitPattern: check), count: Int32(bytes.count))
  }

  /// A slot of this store for the record in `slot` of `other`: the same place in a file, or a
  /// copy of its bytes.
  func take(_ slot: Slot, from other: RecordStore) -> Slot {
    slot.isInFile ? slot : store(other.bytes(slot))
  }

  private func address(_ position: Int) -> UnsafeMutableRawPointer? {
    blocks[position >> 32].map { $0 + (position & 0xFFFF_FFFF) }
  }

  /// Copies `bytes` in, or keeps where they are in a file (`place`, when past `memoryLimit`);
  /// returns where they are.
  func store(_ bytes: UnsafeRawBufferPointer, at place: Int? = nil) -> Slot {
    if let slot = fileSlot(bytes, at: place) { return slot }
    let count = bytes.count
    guard count > 0 else { return .empty }
    live += count
    var slot: Slot
    if count > Self.shared {
      blocks.append(UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 8))
      slot = Slot(position: (blocks.count - 1) << 32, capacity: Int32(count), count: Int32(count))
    } else {
      let steps = (count + Self.step - 1) / Self.step
      slot = Slot(position: -1, capacity: 0, count: Int32(count))
      for size in steps...min(steps + 3, holes.count - 1) where holes[size] >= 0 {
        let position = holes[size]
        holes[size] = address(position)?.loadUnaligned(as: Int.self) ?? -1
        garbage -= size * Self.step
        slot.position = position
        slot.capacity = Int32(size * Self.step)
        break
      }
      if slot.position < 0 {
        let room = steps * Self.step
        if room > left {
          garbage += left  // the end of the block stays unused
          blocks.append(UnsafeMutableRawPointer.allocate(byteCount: Self.blockSize, alignment: 16))
          block = blocks.count - 1
          used = 0
          left = Self.blockSize
        }
        slot.position = block << 32 | used
        slot.capacity = Int32(room)
        used += room
        left -= room
      }
    }
    if let source = bytes.baseAddress, let target = address(slot.position) {
      target.copyMemory(from: source, byteCount: count)
    }
    return slot
  }

  /// Puts `bytes` in place of the record in `slot`: in its room when they fit there, unless
  /// they can stay in their file (`place`).
  func replace(_ slot: inout Slot, with bytes: UnsafeRawBufferPointer, at place: Int? = nil) {
    if let inFile = fileSlot(bytes, at: place) {
      release(slot)
      slot = inFile
      return
    }
    guard bytes.count <= Int(slot.capacity), bytes.count > 0, let target = address(slot.position)
    else {
      release(slot)
      slot = store(bytes, at: place)
      return
    }
    live += bytes.count - Int(slot.count)
    if let source = bytes.baseAddress { target.copyMemory(from: source, byteCount: bytes.count) }
    slot.count = Int32(bytes.count)
  }

  /// Lets go of the record in `slot`: its block, if it had one of its own, else its room; a
  /// record in a file has neither.
  func release(_ slot: Slot) {
    guard slot.capacity > 0 else { return }
    live -= Int(slot.count)
    if Int(slot.capacity) > Self.shared {
      blocks[slot.position >> 32]?.deallocate()
      blocks[slot.position >> 32] = nil
      return
    }
    let size = Int(slot.capacity) / Self.step
    address(slot.position)?.storeBytes(of: holes[size], as: Int.self)
    holes[size] = slot.position
    garbage += Int(slot.capacity)
  }

  /// Whether the holes are worth copying the live records away from them.
  var wantsCompacting: Bool {
    garbage > Self.blockSize * 16 && garbage > live
  }
}
