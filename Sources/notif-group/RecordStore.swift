/// The leading records of a grouper's groups, compact, side by side in blocks of a megabyte: a
/// group holds a `Slot` (16 bytes) where an array per group would cost its header and malloc's
/// rounding besides (about 50 bytes, a fifth of what the rest of a group costs).
///
/// Room is taken in steps of 16 bytes. The room of a released record (a leader replaced by a
/// longer one) is a hole, kept on a list by its size and taken again by the next record that
/// fits it within three steps; holes never taken (`garbage`) are left behind when the grouper
/// copies the live records into a new store (`Grouper.compactRecords`). A record longer than a
/// quarter block gets a block of its own, freed when it is released. A class, so that the one
/// store of a grouper is never copied.
final class RecordStore {
  /// Where a record is: its block and offset, its length, and its room.
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

  /// The bytes of the record in `slot`, valid until it is released.
  func bytes(_ slot: Slot) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: address(slot.position), count: Int(slot.count))
  }

  private func address(_ position: Int) -> UnsafeMutableRawPointer? {
    blocks[position >> 32].map { $0 + (position & 0xFFFF_FFFF) }
  }

  /// Copies `bytes` in; returns where they are.
  func store(_ bytes: UnsafeRawBufferPointer) -> Slot {
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

  /// Puts `bytes` in place of the record in `slot`: in its room when they fit there.
  func replace(_ slot: inout Slot, with bytes: UnsafeRawBufferPointer) {
    guard bytes.count <= Int(slot.capacity), bytes.count > 0, let target = address(slot.position)
    else {
      release(slot)
      slot = store(bytes)
      return
    }
    live += bytes.count - Int(slot.count)
    if let source = bytes.baseAddress { target.copyMemory(from: source, byteCount: bytes.count) }
    slot.count = Int32(bytes.count)
  }

  /// Lets go of the record in `slot`: its block, if it had one of its own, else its room.
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
