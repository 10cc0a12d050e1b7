import NotifJSON
import NotifModel

/// Finds which of a fixed set of names a JSON key is, comparing raw bytes: no strings built.
///
/// Names are bucketed by length; within a bucket a candidate is first compared by its first and
/// last eight bytes as two words, which decides every name up to 16 bytes without a loop. The
/// words and buckets sit in one flat allocation: a lookup runs for every key of every payload,
/// and arrays would add a bounds check to each step.
// Unchecked: the storage is never written after init.
public struct KeyTable<Name: Sendable>: @unchecked Sendable {
  private let storage: Storage

  private final class Storage {
    let count: Int
    let maxLength: Int
    let words: UnsafeMutablePointer<UInt64>  // head and tail of entry i at 2i and 2i + 1
    let bucketStart: UnsafeMutablePointer<Int>  // entries of length n: [n]..<[n + 1]
    let names: UnsafeMutablePointer<Name>
    // The names' bytes, entry i's as key i: the tables are shared by the threads.
    let spelled: PackedKeys

    init(_ table: [(String, Name)]) {
      let sorted = table.sorted { $0.0.utf8.count < $1.0.utf8.count }
      let bytes = sorted.map { Array($0.0.utf8) }
      count = sorted.count
      maxLength = bytes.last?.count ?? 0
      words = UnsafeMutablePointer<UInt64>.allocate(capacity: 2 * max(count, 1))
      names = UnsafeMutablePointer<Name>.allocate(capacity: max(count, 1))
      bucketStart = UnsafeMutablePointer<Int>.allocate(capacity: maxLength + 2)
      spelled = PackedKeys(bytes)
      for (i, entry) in sorted.enumerated() {
        let (head, tail) = bytes[i].withUnsafeBytes { KeyTable.words($0) }
        words[2 * i] = head
        words[2 * i + 1] = tail
        (names + i).initialize(to: entry.1)
      }
      // Closures, not key paths: a key path is built by the runtime when first used, and these
      // tables are built at every start.
      for length in 0...maxLength + 1 {
        bucketStart[length] = bytes.firstIndex { $0.count >= length } ?? count
      }
    }

    /// Whether entry `i` is spelled `raw`.
    func spells(_ i: Int, _ raw: UnsafeRawBufferPointer) -> Bool { spelled.spells(i, raw) }

    /// Whether entry `i`, lowercase, is spelled `raw` (of the entry's length) in any case.
    func spellsIgnoringCase(_ i: Int, _ raw: UnsafeRawBufferPointer) -> Bool {
      let name = spelled.start(i).assumingMemoryBound(to: UInt8.self)
      for j in 0..<raw.count {
        let byte = raw[j]
        if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != name[j] { return false }
      }
      return true
    }

    deinit {
      names.deinitialize(count: count)
      names.deallocate()
      words.deallocate()
      bucketStart.deallocate()
    }
  }

  /// A table of `table`'s names, each with its value.
  public init(_ table: [(String, Name)]) {
    storage = Storage(table)
  }

  /// A table for `findIgnoringCase`: `table`'s names, each with its value, compared without
  /// regard to the case of ASCII letters.
  public init(ignoringCase table: [(String, Name)]) {
    storage = Storage(table.map { (Self.lowercased($0.0), $0.1) })
  }

  private static func lowercased(_ name: String) -> String {
    String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
  }

  /// The name of the key string at `index` of `view`, or nil if it is none of them.
  @inline(__always)
  public func find(_ view: JSONView, _ index: Int) -> Name? {
    find(view, index, ignoringCase: false)
  }

  /// The name of the key string at `index` of `view` in a table made `ignoringCase`, the case
  /// of its ASCII letters aside (`APNS`, `Apns` and `apns` are one name), or nil.
  public func findIgnoringCase(_ view: JSONView, _ index: Int) -> Name? {
    find(view, index, ignoringCase: true)
  }

  @inline(__always)
  private func find(_ view: JSONView, _ index: Int, ignoringCase: Bool) -> Name? {
    if view.tokens[index].flag {  // escaped: compare the decoded text
      var text = view.string(index)
      return text.withUTF8 { find(UnsafeRawBufferPointer($0), ignoringCase: ignoringCase) }
    }
    return find(view.rawString(index), ignoringCase: ignoringCase)
  }

  /// `lowercased(_:)`, for the tests.
  static func lowercasedForTests(_ word: UInt64) -> UInt64 { lowercased(word) }

  /// `word` with each of its bytes `A` to `Z` made `a` to `z`, eight at a time.
  @inline(__always)
  fileprivate static func lowercased(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let low = word & (ones &* 0x7F)
    // The high bit of a byte of `atLeastA` is set where the byte is at least `A`, of `pastZ`
    // where it is past `Z`; a byte with its own high bit set is no letter.
    let atLeastA = low &+ ones &* (0x80 - 0x41)
    let pastZ = low &+ ones &* (0x80 - 0x5B)
    let upper = (atLeastA ^ pastZ) & ~word & (ones &* 0x80)
    return word | upper >> 2
  }

  /// The lookup of both: `ignoringCase` is a constant at each call, so each inlined copy
  /// keeps only its own comparison.
  @inline(__always)
  private func find(_ raw: UnsafeRawBufferPointer, ignoringCase: Bool) -> Name? {
    let length = raw.count
    let storage = self.storage
    guard length <= storage.maxLength else { return nil }
    var (head, tail) = Self.words(raw)
    if ignoringCase {
      head = Self.lowercased(head)
      tail = Self.lowercased(tail)
    }
    var entry = storage.bucketStart[length]
    let end = storage.bucketStart[length + 1]
    while entry < end {
      if storage.words[2 * entry] == head && storage.words[2 * entry + 1] == tail
        && (length <= 16
          || (ignoringCase
            ? storage.spellsIgnoringCase(entry, raw) : storage.spells(entry, raw)))
      {
        return storage.names[entry]
      }
      entry += 1
    }
    return nil
  }

  /// The first and the last eight bytes as words (zero-padded when shorter).
  @inline(__always)
  fileprivate static func words(_ raw: UnsafeRawBufferPointer) -> (head: UInt64, tail: UInt64) {
    if raw.count >= 8 {
      return (
        raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
        raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self)
      )
    }
    // Two overlapping loads cover 2 to 7 bytes; the bytes they share are the same, so OR
    // combines them into exactly the zero-padded word.
    let word: UInt64
    switch raw.count {
    case 4...7:
      let low = UInt64(raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
      let high = UInt64(raw.loadUnaligned(fromByteOffset: raw.count - 4, as: UInt32.self))
      word = low | high << UInt64(8 * (raw.count - 4))
    case 2...3:
      let low = UInt64(raw.loadUnaligned(fromByteOffset: 0, as: UInt16.self))
      let high = UInt64(raw.loadUnaligned(fromByteOffset: raw.count - 2, as: UInt16.self))
      word = low | high << UInt64(8 * (raw.count - 2))
    case 1:
      word = UInt64(raw[0])
    default:
      word = 0
    }
    return (word, word)
  }
}
