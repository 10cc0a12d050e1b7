/// The leading records of a grouper's groups, compact, side by side in blocks of a megabyte: a
/// group holds a `Slot` (16 bytes) where an array per group would cost its header and malloc's
/// rounding besides (about 50 bytes, a fifth of what the rest of a group costs).
///
/// A record longer than a quarter block gets a block of its own, freed when the record is
/// released. Elsewhere a released record leaves a hole (`garbage`) until the grouper copies the
/// live records into a new store (`Grouper.compactRecords`). A class, so that the one store of
/// a grouper is never copied.
final class RecordStore {
  /// Where a record is: its block and offset, its length, and the room it may grow into.
  struct Slot {
    fileprivate var position: Int
    fileprivate var capacity: Int32
    var count: Int32

    /// No record: zero bytes, stored nowhere.
    static let empty = Slot(position: 0, capacity: 0, count: 0)
  }

  private var blocks: [UnsafeMutableRawPointer?] = []
  /// The next free byte of the last shared block, and how many are left there.
  private var block = -1
  private var used = 0
  private var left = 0
  /// The bytes of the records stored and not released, and of those released (holes).
  private(set) var live = 0
  private(set) var garbage = 0

  static let blockSize = 1 << 20

  deinit {
    for block in blocks { block?.deallocate() }
  }

  /// The bytes of the record in `slot`, valid until it is released.
  func bytes(_ slot: Slot) -> UnsafeRawBufferPointer {
    guard slot.count > 0, let base = blocks[slot.position >> 32] else {
      return UnsafeRawBufferPointer(start: nil, count: 0)
    }
    return UnsafeRawBufferPointer(
      start: base + (slot.position & 0xFFFF_FFFF), count: Int(slot.count))
  }

  /// Copies `bytes` in; returns where they are.
  func store(_ bytes: UnsafeRawBufferPointer) -> Slot {
    let count = bytes.count
    live += count
    let slot: Slot
    if count > Self.blockSize / 4 {
      blocks.append(UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 8))
      slot = Slot(position: (blocks.count - 1) << 32, capacity: Int32(count), count: Int32(count))
    } else {
      if count > left {
        garbage += left  // the end of the block stays unused
        blocks.append(UnsafeMutableRawPointer.allocate(byteCount: Self.blockSize, alignment: 8))
        block = blocks.count - 1
        used = 0
        left = Self.blockSize
      }
      slot = Slot(position: block << 32 | used, capacity: Int32(count), count: Int32(count))
      used += count
      left -= count
    }
    if count > 0, let source = bytes.baseAddress, let base = blocks[slot.position >> 32] {
      (base + (slot.position & 0xFFFF_FFFF)).copyMemory(from: source, byteCount: count)
    }
    return slot
  }

  /// Puts `bytes` in place of the record in `slot`: where it is when they fit there.
  func replace(_ slot: inout Slot, with bytes: UnsafeRawBufferPointer) {
    guard bytes.count <= Int(slot.capacity), let base = blocks[slot.position >> 32] else {
      release(slot)
      slot = store(bytes)
      return
    }
    live += bytes.count - Int(slot.count)
    garbage += Int(slot.count) - bytes.count
    if bytes.count > 0, let source = bytes.baseAddress {
      (base + (slot.position & 0xFFFF_FFFF)).copyMemory(from: source, byteCount: bytes.count)
    }
    slot.count = Int32(bytes.count)
  }

  /// Lets go of the record in `slot`: its block, if it had one of its own, else its room.
  func release(_ slot: Slot) {
    live -= Int(slot.count)
    let index = slot.position >> 32
    if Int(slot.capacity) > Self.blockSize / 4 {
      garbage -= Int(slot.capacity) - Int(slot.count)  // counted when it shrank: freed now
      blocks[index]?.deallocate()
      blocks[index] = nil
    } else {
      garbage += Int(slot.count)  // the rest of its room was counted when it shrank
    }
  }

  /// Whether the holes are worth copying the live records away from them.
  var wantsCompacting: Bool {
    garbage > Self.blockSize * 16 && garbage > live
  }
}
