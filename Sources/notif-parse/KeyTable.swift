import NotifModel

/// Finds which of a fixed set of names a JSON key is, comparing raw bytes: no strings built.
///
/// Candidates are bucketed by length, so a lookup compares against at most a few names.
struct KeyTable<Name: Sendable>: Sendable {
  private let buckets: [[([UInt8], Name)]]

  init(_ names: [(String, Name)]) {
    let longest = names.map { $0.0.utf8.count }.max() ?? 0
    var buckets = Array(repeating: [([UInt8], Name)](), count: longest + 1)
    for (text, name) in names {
      buckets[text.utf8.count].append((Array(text.utf8), name))
    }
    self.buckets = buckets
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
    guard raw.count < buckets.count else { return nil }
    for (bytes, name) in buckets[raw.count] where bytes.elementsEqual(raw) {
      return name
    }
    return nil
  }
}
