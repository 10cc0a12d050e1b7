import NotifModel
import Testing

/// Duplicate keys in objects of more than 32 keys, where the parser hashes raw key bytes.
@Suite struct ManyKeysTests {
  /// An object of `count` distinct keys `key00`, `key01`, ... (long ones with `prefix`), then
  /// `extra` members as given.
  static func object(count: Int, prefix: String = "key", extra: [String] = []) -> String {
    let members = (0..<count).map { "\"\(prefix)\($0 < 10 ? "0" : "")\($0)\":\($0)" } + extra
    return "{" + members.joined(separator: ",") + "}"
  }

  @Test(arguments: ["key", "a-long-prefix-of-more-than-eight-bytes-", ""])
  func distinctKeysAreAccepted(_ prefix: String) {
    let text = Self.object(count: 40, prefix: prefix)
    #expect(parse(text).result == .complete(end: text.utf8.count))
  }

  @Test func keysThatDifferOnlyInTheirLastByteAreDistinct() {
    let text = Self.object(count: 40, extra: [#""abcdefghijklmno1":1"#, #""abcdefghijklmno2":2"#])
    #expect(parse(text).result == .complete(end: text.utf8.count))
  }

  @Test(arguments: [
    #""key07":99"#, #""\u006bey07":99"#, #""key\/07":1,"key/07":2"#,
    #""abcdefghijklmnopq":1,"abcdefghijklmnopq":2"#,
  ])
  func aRepeatedKeyIsFoundAndNamedWhereItRepeats(_ extra: String) {
    let text = Self.object(count: 40, extra: [extra])
    let error = parseError(text)
    #expect(error?.code == .duplicateKey)
    // The second occurrence is reported: the last member's key, or the last one's pair.
    let name =
      extra.hasPrefix(#""key\/"#)
      ? "key/07" : extra.hasPrefix(#""abc"#) ? "abcdefghijklmnopq" : "key07"
    #expect(error?.message == "duplicate key '\(name)'")
    // The offset is that of the repeated key's opening quote.
    let last = text.utf8.count - 1 - extra.split(separator: ",").last!.utf8.count
    #expect(error?.offset == last)
  }
}
