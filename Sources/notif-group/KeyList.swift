import NotifJSON

/// A fixed list of JSON keys as bytes, made once from their one definition (`RecordField`,
/// `GroupField`), to find which one a key on the tape is without building a `String`, and to
/// write them.
///
/// Keys are chained by length, so a key is compared only with the keys of its length: most keys
/// of a record are none of those notif-group reads, and cost one load. A candidate is compared
/// by three words (its first, middle and last eight bytes), which decides every key of up to 24
/// bytes without calling `memcmp`. The rare escaped key is looked up out of line.
///
/// This runs for every member of every record, so a list is plain pointers: copying one costs
/// no reference counting and a lookup no bounds checks. Its memory is allocated once and never
/// freed, like a C program's static tables: make a list once, in a `static let`.
struct KeyList: @unchecked Sendable {  // never written after init
  /// The number of keys.
  let count: Int
  /// The longest key's length.
  private let maxLength: Int
  private let keys: UnsafeMutablePointer<String>
  /// By length: the first key of that length; -1 for none.
  private let firstOfLength: UnsafeMutablePointer<Int>
  /// By key: the next key of the same length; -1 for none.
  private let nextOfLength: UnsafeMutablePointer<Int>
  /// By key: its three words, at 3i, 3i + 1 and 3i + 2.
  private let words: UnsafeMutablePointer<UInt64>
  /// Every key as a member start (`{"key":` for the first, `,"key":` for the others), one after
  /// the other; key i's starts at `memberStartOffsets[i]`.
  private let memberStarts: UnsafeMutableRawPointer
  private let memberStartOffsets: UnsafeMutablePointer<Int>

  init(_ keys: [String]) {
    let spelled = keys.map { Array($0.utf8) }
    count = keys.count
    maxLength = spelled.map(\.count).max() ?? 0
    self.keys = .allocate(capacity: max(count, 1))
    self.keys.initialize(from: keys, count: count)
    firstOfLength = .allocate(capacity: maxLength + 1)
    firstOfLength.initialize(repeating: -1, count: maxLength + 1)
    nextOfLength = .allocate(capacity: max(count, 1))
    words = .allocate(capacity: 3 * max(count, 1))
    let starts = keys.indices.map { Array("\($0 == 0 ? "{" : ",")\"\(keys[$0])\":".utf8) }
    memberStarts = .allocate(byteCount: max(starts.reduce(0) { $0 + $1.count }, 1), alignment: 1)
    memberStartOffsets = .allocate(capacity: count + 1)
    memberStartOffsets[0] = 0
    for (position, start) in starts.enumerated() {
      let offset = memberStartOffsets[position]
      for (index, byte) in start.enumerated() {
        memberStarts.storeBytes(of: byte, toByteOffset: offset + index, as: UInt8.self)
      }
      memberStartOffsets[position + 1] = offset + start.count
    }
    for position in spelled.indices.reversed() {
      let length = spelled[position].count
      nextOfLength[position] = firstOfLength[length]
      firstOfLength[length] = position
      (words[3 * position], words[3 * position + 1], words[3 * position + 2]) =
        spelled[position].withUnsafeBytes { Self.words($0) }
    }
  }

  /// The key at `position`.
  func key(_ position: Int) -> String {
    precondition(position >= 0 && position < count)
    return keys[position]
  }

  /// What starts the member of key `position` in an object written in the order of the list:
  /// `{"key":` for the first key, `,"key":` for the others (JSON text: keys need no escapes).
  @inline(__always)
  func memberStart(_ position: Int) -> UnsafeRawBufferPointer {
    assert(position >= 0 && position < count)
    let offset = memberStartOffsets[position]
    return UnsafeRawBufferPointer(
      start: memberStarts + offset, count: memberStartOffsets[position + 1] - offset)
  }

  /// Calls `body` with the position of the key and the index of the value of each member of the
  /// object at `object` of `view` whose key is in the list, in order; other members are skipped.
  ///
  /// - Complexity: O(number of members).
  @inline(__always)
  func forEachMember(
    of object: Int, in view: JSONView, _ body: (_ position: Int, _ value: Int) throws -> Void
  ) rethrows {
    var key = object + 1
    for _ in 0..<Int(view.tokens[object].count) {
      let position = position(of: key, in: view)
      if position >= 0 { try body(position, key + 1) }
      key = Int(view.tokens[key + 1].next)
    }
  }

  /// The position of the key string at `index` of `view`; -1 if it is none of them.
  @inline(__always)
  func position(of index: Int, in view: JSONView) -> Int {
    let token = view.tokens[index]
    if _slowPath(token.flag) { return escapedPosition(of: index, in: view) }
    let start = Int(token.start) + 1
    let length = Int(token.end) - start - 1
    guard length <= maxLength, firstOfLength[length] >= 0, let base = view.bytes.baseAddress
    else { return -1 }
    return position(of: UnsafeRawBufferPointer(start: base + start, count: length))
  }

  /// An escaped key, compared decoded: rare (notif-group and notif-parse never write one).
  @inline(never)
  private func escapedPosition(of index: Int, in view: JSONView) -> Int {
    var text = view.string(index)
    return text.withUTF8 { position(of: UnsafeRawBufferPointer($0)) }
  }

  /// The position of the key spelled `raw` (unescaped); -1 if it is none of them.
  @inline(__always)
  func position(of raw: UnsafeRawBufferPointer) -> Int {
    let length = raw.count
    guard length <= maxLength else { return -1 }
    var candidate = firstOfLength[length]
    guard candidate >= 0 else { return -1 }
    let (head, middle, tail) = Self.words(raw)
    while candidate >= 0 {
      if words[3 * candidate] == head && words[3 * candidate + 1] == middle
        && words[3 * candidate + 2] == tail
        && (length <= 24 || keys[candidate].utf8.elementsEqual(raw))
      {
        return candidate
      }
      candidate = nextOfLength[candidate]
    }
    return -1
  }

  /// The first, middle and last eight bytes of `raw` as words, overlapping when it is shorter
  /// than 24 bytes, zero-padded when it is shorter than 8.
  @inline(__always)
  private static func words(_ raw: UnsafeRawBufferPointer) -> (UInt64, UInt64, UInt64) {
    let count = raw.count
    if count >= 8 {
      return (
        raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
        raw.loadUnaligned(fromByteOffset: min(8, count - 8), as: UInt64.self),
        raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
      )
    }
    // Two overlapping loads cover 2 to 7 bytes; the bytes they share are the same, so OR
    // combines them into exactly the zero-padded word.
    let word: UInt64
    switch count {
    case 4...7:
      let low = UInt64(raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
      let high = UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
      word = low | high << UInt64(8 * (count - 4))
    case 2...3:
      let low = UInt64(raw.loadUnaligned(fromByteOffset: 0, as: UInt16.self))
      let high = UInt64(raw.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self))
      word = low | high << UInt64(8 * (count - 2))
    case 1:
      word = UInt64(raw[0])
    default:
      word = 0
    }
    return (word, word, word)
  }
}
