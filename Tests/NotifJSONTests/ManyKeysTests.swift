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

  /// Keys of one length that share their first and last eight bytes, which the raw hash reads:
  /// every key hashes alike, and the table would compare each with all before it. Past a few
  /// probes a key the check gives way to one that hashes every byte, and still names the first
  /// key to repeat. (Here the old check took 18 s in a debug build; this one 0.1 s.)
  @Test(arguments: [nil, 12_345])
  func keysMadeToShareTheirHashedBytesAreCheckedInLinearTime(_ repeated: Int?) {
    let count = 20_000
    func key(_ index: Int) -> String {
      "\"aaaaaaaa" + String(100_000 + index) + "bbbbbbbb\""
    }
    var members = (0..<count).map { key($0) + ":0" }
    if let repeated { members.append(key(repeated) + ":1") }
    members.append(key(count) + ":2")
    let text = "{" + members.joined(separator: ",") + "}"
    if repeated != nil {
      let error = parseError(text)
      #expect(error?.message == "duplicate key 'aaaaaaaa112345bbbbbbbb'")
      #expect(
        error?.offset == text.utf8.count - 1 - (key(count) + ":2").utf8.count
          - 1 - (key(12_345) + ":1").utf8.count)
    } else {
      #expect(parse(text).result == .complete(end: text.utf8.count))
    }
  }
}
