import NotifModel

/// Finds which of a fixed set of names a JSON key is, comparing raw bytes: no strings built.
///
/// Names are bucketed by length; within a bucket a candidate is first compared by its first and
/// last eight bytes as two words, which decides every name up to 16 bytes without a loop.
struct KeyTable<Name: Sendable>: Sendable {
  private let lengths: [Int]
  private let heads: [UInt64]
  private let tails: [UInt64]
  private let spelled: [[UInt8]]
  private let names: [Name]
  private let bucketStart: [Int]  // entries of length n are bucketStart[n]..<bucketStart[n + 1]

  init(_ table: [(String, Name)]) {
    let sorted = table.sorted { $0.0.utf8.count < $1.0.utf8.count }
    spelled = sorted.map { Array($0.0.utf8) }
    names = sorted.map(\.1)
    lengths = spelled.map(\.count)
    heads = spelled.map { bytes in bytes.withUnsafeBytes { Self.words($0).head } }
    tails = spelled.map { bytes in bytes.withUnsafeBytes { Self.words($0).tail } }
    let all = lengths
    bucketStart = (0...(all.last ?? 0) + 1).map { length in
      all.firstIndex { $0 >= length } ?? all.count
    }
  }

  /// The name of the key string at `index` of `view`, or nil if it is none of them.
  func find(_ view: JSONView, _ index: Int) -> Name? {
    if view.tokens[index].flag {  // escaped: compare the decoded text
      var text = view.string(index)
      return text.withUTF8 { find(UnsafeRawBufferPointer($0)) }
    }
    return find(view.rawString(index))
  }

  private func find(_ raw: UnsafeRawBufferPointer) -> Name? {
    let length = raw.count
    guard length + 1 < bucketStart.count else { return nil }
    let (head, tail) = Self.words(raw)
    for entry in bucketStart[length]..<bucketStart[length + 1]
    where heads[entry] == head && tails[entry] == tail {
      if length <= 16 || spelled[entry].elementsEqual(raw) { return names[entry] }
    }
    return nil
  }

  /// The first and the last eight bytes as words (zero-padded when shorter).
  @inline(__always)
  private static func words(_ raw: UnsafeRawBufferPointer) -> (head: UInt64, tail: UInt64) {
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
