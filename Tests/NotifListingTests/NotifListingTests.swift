import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import NotifListing

@Suite struct TopListTests {
  /// Whatever the order of the stream, the list keeps the first `limit` in order, and never
  /// more than `limit`.
  @Test(arguments: [1, 3, 10, 50])
  func keepsTheFirstInOrderAndNoMore(_ limit: Int) {
    var generator = SplitMix(seed: UInt64(limit))
    let values = (0..<500).map { _ in Int(generator.next() % 1000) }
    var list = TopList<(value: Int, order: Int)>(limit: limit) {
      $0.value != $1.value ? $0.value > $1.value : $0.order < $1.order
    }
    for (order, value) in values.enumerated() {
      list.insert((value, order))
      #expect(list.count <= limit)
    }
    let expected = values.enumerated().map { (value: $1, order: $0) }
      .sorted { $0.value != $1.value ? $0.value > $1.value : $0.order < $1.order }
      .prefix(limit)
    #expect(list.sorted().map(\.order) == expected.map(\.order))
  }

  @Test func admitsOnlyWhatWouldBeKept() {
    var list = TopList<Int>(limit: 2, by: <)
    #expect(list.admits(9))
    list.insert(5)
    list.insert(3)
    #expect(!list.admits(7))
    #expect(list.admits(4))
    list.insert(4)
    #expect(list.sorted() == [3, 4])
  }
}

@Suite struct GroupObjectMembersTests {
  /// A member the reader does not know (one a later notif-group may add) is ignored, and the
  /// others are found in any order.
  @Test func findsKnownMembersInAnyOrderAndIgnoresOthers() throws {
    let text =
      #"{"count":2,"app":"a","merge_options":{"by":"app"},"leading":{},"summary":"s"}"#
    let found = try #require(
      withView(of: text) { view in
        let members = GroupObjectMembers(view)
        return (
          members[.count].map { view.integer($0) }, members[.app].flatMap { view.stringValue($0) },
          members[.summary].flatMap { view.stringValue($0) }, members[.items],
          members.firstMissing(of: [.app, .count, .leading, .items])
        )
      })
    #expect(found.0 == 2)
    #expect(found.1 == "a")
    #expect(found.2 == "s")
    #expect(found.3 == nil)
    #expect(found.4 == .items)
  }

  @Test func anArrayHasNoMembers() throws {
    let missing = try #require(
      withView(of: "[1,2]") { GroupObjectMembers($0).firstMissing(of: GroupField.required) })
    #expect(missing == .app)
  }
}

/// A small deterministic generator for test data.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
