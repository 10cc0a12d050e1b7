import NotifJSON
import NotifModel
import Testing

@testable import NotifPush

/// The key table compares words, not strings: every length class (under 2, 2-3, 4-7, 8-16,
/// over 16 bytes) must find its own names and nothing else.
struct KeyTableTests {
  static let names = [
    "a", "ab", "abc", "aps", "abcd", "alert", "badge", "abcdefg", "abcdefgh", "thread-id",
    "loc-args", "subtitle-loc-key", "summary-arg-count", "interruption-level", "input-push-channel",
  ]
  static let table = KeyTable(names.enumerated().map { ($0.element, $0.offset) })

  static func find(_ key: String) -> Int? {
    var parser = JSONParser()
    let text = Array("{\"\(key)\":0}".utf8)
    return text.withUnsafeBytes { bytes in
      guard case .complete = parser.parse(bytes, isFinal: true) else { return nil }
      return parser.withView(over: bytes) { table.find($0, 1) }
    }
  }

  @Test(arguments: names.indices)
  func findsEveryName(_ index: Int) {
    #expect(Self.find(Self.names[index]) == index)
  }

  @Test(arguments: [
    "", "b", "ba", "abd", "apS", "abce", "alerts", "alertt", "abcdefh", "bbcdefgh", "thread-ie",
    "subtitle-loc-kez", "summary-arg-counT", "summary-xrg-count", "interruption-levem",
    "input-push-channex", "input-xush-channel",
  ])
  func findsNothingForOtherKeys(_ key: String) {
    #expect(Self.find(key) == nil)
  }

  static let folded = KeyTable(ignoringCase: names.enumerated().map { ($0.element, $0.offset) })

  static func findIgnoringCase(_ key: String) -> Int? {
    var parser = JSONParser()
    let text = Array("{\"\(key)\":0}".utf8)
    return text.withUnsafeBytes { bytes in
      guard case .complete = parser.parse(bytes, isFinal: true) else { return nil }
      return parser.withView(over: bytes) { folded.findIgnoringCase($0, 1) }
    }
  }

  /// Every length class, in any case; and no byte that only differs from a letter by the case
  /// bit (`@` and `` ` ``, `[` and `{`, `_` and DEL) is taken for one.
  @Test(arguments: names.indices)
  func findsEveryNameInAnyCase(_ index: Int) {
    let name = Self.names[index]
    #expect(Self.findIgnoringCase(name) == index)
    #expect(Self.findIgnoringCase(name.uppercased()) == index)
    let mixed = String(
      name.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.uppercased()) : $0.element }
    )
    #expect(Self.findIgnoringCase(mixed) == index)
  }

  @Test(arguments: [
    "", "B", "bA", "APT", "Alerts", "SUMMARY-ARG-COUNS", "INTERRUPTION-LEVEm", "a\\u007f",
    "@", "[ps", "thread\\u000did", "ALERT\\u00c9",
  ])
  func findsNothingElseIgnoringCase(_ key: String) {
    #expect(Self.findIgnoringCase(key) == nil)
  }

  @Test func lowercasesEveryByteOfAWord() {
    for byte in 0...255 {
      let word = UInt64(byte) << 24 | 0x4100_0000_0000_005A
      let lowered = KeyTable<Int>.lowercasedForTests(word)
      let expected = (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
      #expect(lowered == UInt64(expected) << 24 | 0x6100_0000_0000_007A)
    }
  }

  @Test func comparesEscapedKeysAfterDecoding() {
    #expect(Self.find("b\\u0061dge") == Self.names.firstIndex(of: "badge"))
  }
}
