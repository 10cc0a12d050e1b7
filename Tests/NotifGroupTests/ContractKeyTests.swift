import NotifJSON
import NotifModel
import Testing

@testable import notif_group

/// The keys notif-group writes and reads are the ones `GroupField` and `RecordField` define.
@Suite struct ContractKeyTests {
  /// The keys of the object at `index` of `view`, decoded, in order.
  private func keys(_ view: JSONView, _ index: Int) -> [String] {
    var names: [String] = []
    view.forEachMember(of: index) { key, _ in names.append(view.string(key)) }
    return names
  }

  /// Calls `body` with the view of the JSON text `line`.
  private func withView<R>(_ line: String, _ body: (JSONView) -> R) -> R? {
    var parser = JSONParser()
    let bytes = Array(line.utf8)
    return bytes.withUnsafeBytes { raw in
      guard case .complete = parser.parse(raw, isFinal: true) else { return nil }
      return parser.withView(over: raw, body)
    }
  }

  @Test func groupObjectsHaveTheKeysOfGroupFieldInOrder() {
    let result = group([
      record("a", thread: "t", category: "chat", summaryArg: "Ana"),
      record("b", thread: "t", at: "2026-11-22T08:00:00Z", category: "chat", summaryArg: "Bo"),
    ])
    #expect(result.lines.count == 1)
    let found = withView(result.lines.first ?? "") { view in
      var entries: [[String]] = []
      for field in [GroupField.moreCategories, .moreSummaryArgs] {
        view.forEachMember(of: 0) { key, value in
          guard view.string(key) == field.key else { return }
          view.forEachElement(of: value) { entries.append(keys(view, $0)) }
        }
      }
      return (keys(view, 0), entries)
    }
    #expect(found?.0 == (GroupField.required + [.grouping]).map(\.key))
    #expect(
      found?.1 == [
        GroupField.CategoryEntry.allCases.map(\.key),
        GroupField.SummaryArgEntry.allCases.map(\.key),
      ])
    let grouping = withView(result.lines.first ?? "") { view in
      keys(view, view.member(0, "grouping") ?? 0)
    }
    #expect(grouping == GroupField.GroupingEntry.allCases.map(\.key))
    // A key's position in `required` is its raw value; `grouping` and the summaries follow.
    #expect(GroupField.required == GroupField.allCases.filter { !$0.isSummary && $0 != .grouping })
    #expect(GroupField.required.enumerated().allSatisfy { $0.offset == $0.element.rawValue })
    #expect(GroupField.allCases.suffix(3) == [.grouping, .summary, .hiddenSummary])
  }

  @Test func keyListFindsEachKeyAndNothingElse() {
    let list = KeyList(RecordField.allCases.map(\.key))
    for field in RecordField.allCases {
      let found = Array(field.key.utf8).withUnsafeBytes { list.position(of: $0) }
      #expect(found == field.rawValue)
    }
    for other in ["", "ap", "apq", "read_an", "summary_arg_count_", "created_at\u{0}"] {
      #expect(Array(other.utf8).withUnsafeBytes { list.position(of: $0) } == -1, "\(other)")
    }
    let long = KeyList([
      "a_key_longer_than_twenty_four_bytes", "a_key_longer_than_twenty_four_bytez",
    ])
    for (position, key) in [
      "a_key_longer_than_twenty_four_bytes", "a_key_longer_than_twenty_four_bytez",
    ]
    .enumerated() {
      #expect(Array(key.utf8).withUnsafeBytes { long.position(of: $0) } == position)
    }
    #expect(
      Array("a_key_longer_than_twenty_fXur_bytes".utf8).withUnsafeBytes { long.position(of: $0) }
        == -1)
  }

  @Test func keyListWritesEachKeyAsAMemberStart() {
    let list = KeyList(["app", "thread_id"])
    let starts = (0..<list.count).map { String(decoding: list.memberStart($0), as: UTF8.self) }
    #expect(starts == [#"{"app":"#, #","thread_id":"#])
    #expect(list.key(1) == "thread_id")
  }

  @Test func recordKeysSpelledWithEscapesAreRead() {
    let plain = record("a", thread: "t", category: "chat")
    let escaped = plain.replacing(#""created_at""#, with: #""cre\u0061ted_at""#)
      .replacing(#""thread_id""#, with: #""thre\u0061d_id""#)
    let result = group([escaped, record("b", thread: "t", at: "2026-11-22T08:00:00Z")])
    #expect(result.status == .success)
    #expect(result.lines.count == 1)
    #expect(value("latest_at", in: result.lines[0]) == "\"2026-11-22T09:00:00Z\"")
    #expect(
      value("more_categories", in: result.lines[0]) == #"[{"category":null,"count":1,"weight":1}]"#)
  }

  @Test func groupObjectKeysSpelledWithEscapesAreMerged() {
    let line = group([record("a", thread: "t", category: "chat")]).stdout
    let escaped = line.replacing(#""unread_count""#, with: #""unre\u0061d_count""#)
      .replacing(#""items_omitted""#, with: #""items_omitted\u0020""#)
    let merged = group(["--merge"], inputs: [escaped])
    #expect(merged.status == .rejected)
    #expect(merged.stderr.contains("unknown key 'items_omitted ' in a group object"))
    let good = line.replacing(#""unread_count""#, with: #""unre\u0061d_count""#)
    #expect(group(["--merge"], inputs: [good]).stdout == line)
  }
}
