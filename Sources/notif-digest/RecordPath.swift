import NotifCLI
import NotifJSON
import NotifModel
import NotifSweep

/// A value of a record that `--key` and `--actor` name: a record key (`app`, `thread_id`), or
/// a path of keys separated by dots into an object (`payload.user_id`, `payload.aps.thread-id`):
/// what jq spells `.app` and `.payload.user_id`. A key with a dot in it cannot be named.
struct RecordPath: Sendable, Equatable {
  /// The path as given: it names the value in the digest object's `key`.
  let text: String
  /// The record field of the first key, when it is one (found by its slot, not by name).
  let field: RecordField?
  /// The keys, the first one included, as UTF-8 bytes.
  let keys: [[UInt8]]

  /// Reads a path.
  ///
  /// - Throws: `UsageError` for an empty path or an empty key in it (`app..x`, `.app`).
  init(_ text: String, option: String) throws(UsageError) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard !text.isEmpty, parts.allSatisfy({ !$0.isEmpty }) else {
      throw UsageError(
        "\(option): '\(text)' is not a record key or a path such as payload.user_id")
    }
    self.text = text
    keys = parts.map { Array($0.utf8) }
    field = RecordField.allCases.first { $0.key == parts[0] }
  }

  /// The index of the value in `record`, or nil when the record has no such value (a key
  /// missing on the way, or a value on the way that is not an object).
  func find(in record: RecordView) -> Int? {
    let view = record.json
    var index: Int
    if let field {
      guard let found = record.index(field) else { return nil }
      index = found
    } else {
      guard let found = view.member(0, bytes: keys[0]) else { return nil }
      index = found
    }
    for key in keys.dropFirst() {
      guard let found = view.member(index, bytes: key) else { return nil }
      index = found
    }
    return index
  }
}

extension RecordPath {
  /// Reads `--key` values: paths separated by commas; repeated, they add up.
  static func list(_ values: [String]) throws(UsageError) -> [RecordPath] {
    var paths: [RecordPath] = []
    for value in values {
      for part in value.split(separator: ",", omittingEmptySubsequences: false) {
        let path = try RecordPath(String(part), option: "--key")
        guard !paths.contains(where: { $0.text == path.text }) else {
          throw UsageError("--key: '\(path.text)' is given twice")
        }
        paths.append(path)
      }
    }
    return paths
  }
}
