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

  @Test func comparesEscapedKeysAfterDecoding() {
    #expect(Self.find("b\\u0061dge") == Self.names.firstIndex(of: "badge"))
  }
}
