import NotifModel
import TestSupport
import Testing

@testable import notif_group

/// `--merge`: the checks of group objects, and the property that merging the groups of the
/// parts of an input gives the bytes of grouping the whole input.
@Suite struct MergeTests {

  /// Records with several apps and threads (and none), few distinct times and relevances (so
  /// ties are common), categories, summary arguments, counts, read and seen states.
  static func records(count: Int, seed: UInt64) -> [String] {
    var random = SplitMix(seed: seed)
    return (0..<count).map { n in
      let app = random.pick(["com.example.chat", "com.example.mail", "com.example.news", nil])
      let thread = random.pick(["alice", "bob", "team", nil, nil])
      let minute = random.pick([0, 1, 1, 2, 3, 3, 3, 4])
      let second = random.pick(["00", "00", "00.5", "30"])
      return record(
        "r\(n)", app: app, thread: thread, at: "2026-11-22T09:0\(minute):\(second)Z",
        relevance: random.pick(["null", "0", "0.5", "0.5", "1", "0.25"]),
        category: random.pick(["MESSAGE", "PHOTO", nil, "REACTION"]),
        summaryArg: random.pick(["Ann", "Bob", "Zoë", "", nil, nil, "Al \\\"Q\\\""]),
        summaryArgCount: random.pick(["1", "1", "2", "7", "null"]),
        readAt: random.pick([nil, nil, "2026-11-22T10:00:00Z"]),
        seenAt: random.pick([nil, "2026-11-22T09:30:00Z"]))
    }
  }

  static let optionSets: [[String]] = [
    [], ["--no-items"], ["--item-limit", "3"], ["--by", "app"], ["--sort", "relevance"],
    ["--order", "chat"], ["--by", "none"],
    ["--sort", "relevance", "--item-limit", "2", "--order", "chat"],
  ]

  /// The ways to merge part outputs: all at once, from the left, from the right, in pairs.
  static func merges(_ parts: [String], _ options: [String]) -> [(String, String)] {
    func merge(_ inputs: [String]) -> String {
      let result = group(options + ["--merge"], inputs: inputs)
      #expect(result.status == .success, "merge failed: \(result.stderr)")
      return result.stdout
    }
    var left = parts[0]
    for part in parts.dropFirst() { left = merge([left, part]) }
    var right = parts[parts.count - 1]
    for part in parts.dropLast().reversed() { right = merge([part, right]) }
    var level = parts
    while level.count > 1 {
      level = stride(from: 0, to: level.count, by: 2).map {
        $0 + 1 < level.count ? merge([level[$0], level[$0 + 1]]) : level[$0]
      }
    }
    return [
      ("all at once", merge(parts)), ("from the left", left), ("from the right", right),
      ("in pairs", level[0]),
    ]
  }

  @Test(arguments: optionSets)
  func mergingThePartsGivesTheBytesOfTheWhole(_ options: [String]) {
    for seed in UInt64(1)...6 {
      let input = Self.records(count: 120, seed: seed)
      let whole = group(options, input)
      #expect(whole.status == .success)
      var random = SplitMix(seed: seed &* 7919)
      let partCount = 2 + random.below(4)
      var cuts = Set<Int>()
      while cuts.count < partCount - 1 { cuts.insert(random.below(input.count - 1) + 1) }
      let bounds = [0] + cuts.sorted() + [input.count]
      let parts = (0..<partCount).map { k in
        group(options, Array(input[bounds[k]..<bounds[k + 1]])).stdout
      }
      for (how, merged) in Self.merges(parts, options) {
        #expect(
          merged == whole.stdout,
          "seed \(seed), options \(options), cuts \(bounds), merged \(how)")
      }
    }
  }

  @Test func mergingTheSameGroupsAgainWithLastSeenUsesTheirNewCount() {
    let input = Self.records(count: 60, seed: 42)
    let whole = group(["--last-seen", "2026-11-22T09:02:00Z"], input)
    let first = group(["--last-seen", "2026-11-22T09:02:00Z"], Array(input[..<25])).stdout
    let second = group(["--last-seen", "2026-11-22T09:02:00Z"], Array(input[25...])).stdout
    #expect(group(["--merge"], inputs: [first, second]).stdout == whole.stdout)
  }

  @Test func itemsSurviveOnlyWhenEveryPartHasThem() {
    let input = Self.records(count: 40, seed: 3)
    let withItems = group([], Array(input[..<20])).stdout
    let without = group(["--no-items"], Array(input[20...])).stdout
    let merged = group(["--merge"], inputs: [withItems, without])
    #expect(merged.stdout == group(["--no-items"], input).stdout)
    let limited = group(["--item-limit", "2"], Array(input[20...])).stdout
    let again = group(["--merge", "--item-limit", "2"], inputs: [withItems, limited])
    #expect(again.stdout == group(["--item-limit", "2"], input).stdout)
  }

  @Test func mergeByAppJoinsTheThreadsOfAnApp() {
    let input = Self.records(count: 80, seed: 9)
    let threads = group(["--no-items"], input).stdout
    let byApp = group(["--merge", "--by", "app"], inputs: [threads])
    #expect(byApp.stdout == group(["--no-items", "--by", "app"], input).stdout)
  }

  @Test func summarizedObjectsMergeWithTheirSummaryDropped() {
    let line = group([record("a", thread: "t")]).stdout.dropLast(2)
    let summarized = line + #","summary":"1 more message","hidden_summary":null}"# + "\n"
    let merged = group(["--merge"], inputs: [String(summarized)])
    #expect(merged.status == .success)
    #expect(merged.stdout == group([record("a", thread: "t")]).stdout)
  }

  static let good = group([record("a", thread: "t")]).lines.first ?? ""

  @Test(arguments: [
    (
      #"{"app":null}"#,
      "input1:1:1: error: not a group object: the key 'thread_id' is missing [BadGroupObject]"
    ),
    (
      good.replacing(#""count":1"#, with: #""count":0"#),
      "input1:1:51: error: 'count' is not a whole number from 1 to 9007199254740991 [BadGroupObject]"
    ),
    (
      good.replacing(#""more_count":0"#, with: #""more_count":1"#),
      "input1:1:X: error: 'more_count' is not a whole number equal to 0, 'count' - 1 [BadGroupObject]"
    ),
    (
      good.replacing(#""items_omitted":0"#, with: #""items_omitted":1"#),
      "input1:1:X: error: 'items_omitted' is not a whole number equal to 0 [BadGroupObject]"
    ),
    (
      good.replacing(#""unread_count":1"#, with: #""unread_count":2"#),
      "input1:1:X: error: 'unread_count' is not a whole number from 0 to 1 [BadGroupObject]"
    ),
    (
      good.replacing(#""latest_at":"2026-11-22T09:00:00Z""#, with: #""latest_at":"soon""#),
      "input1:1:X: error: 'latest_at' is not an RFC 3339 time: 'soon' [BadGroupObject]"
    ),
    (
      good.replacing(#""app":"com.example.chat""#, with: #""app":1"#),
      "input1:1:8: error: 'app' is a number, not a string or null [BadGroupObject]"
    ),
    (
      good.replacing(#""more_categories":[]"#, with: #""more_categories":[{"category":"A"}]"#),
      "input1:1:X: error: an entry has no 'count' [BadGroupObject]"
    ),
    (
      good.replacing(#""items_omitted":0"#, with: #""items_omitted":0,"extra":1"#),
      "input1:1:X: error: unknown key 'extra' in a group object [BadGroupObject]"
    ),
    (
      good.replacing(#""items":[{"id":"a""#, with: #""items":[{"id":"a","created_at":1"#)
        .replacing(
          #""created_at":"2026-11-22T09:00:00Z","relevance":null,"summary_arg":null,"summary_arg_count":1,"read_at":null,"seen_at":null}]"#,
          with: #""relevance":null}]"#),
      "input1:1:X: error: 'created_at' is a number, not an RFC 3339 time [BadCreatedAt]"
    ),
    // The fields of what the device lists are checked as in a record alone: notif-summarize
    // refused the object that notif-group had merged (found by the group-objects fuzz target).
    (
      good.replacing(#""title":"Message""#, with: #""loc_key":{},"title":"Message""#),
      "input1:1:X: error: 'loc_key' is an object, not a string or null [BadType]"
    ),
  ])
  func badGroupObjectIsReportedAndSkipped(_ bad: String, _ message: String) {
    let result = group(["--merge"], inputs: [bad + "\n" + Self.good + "\n"])
    #expect(result.status == .rejected)
    #expect(result.lines == [Self.good])
    // X stands for the column, which is checked where it is easy to count by hand.
    let expected = "notif-group: " + message + "\n"
    if message.contains(":X:") {
      let prefix = expected.prefix { $0 != "X" }
      let suffix = expected.drop { $0 != "X" }.dropFirst()
      #expect(
        result.stderr.hasPrefix(prefix) && result.stderr.hasSuffix(suffix), "\(result.stderr)")
    } else {
      #expect(result.stderr == expected)
    }
  }
}
