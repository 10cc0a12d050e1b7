import NotifModel
import TestSupport
import Testing

@testable import notif_group

/// Counts and weights at their limits (`FieldLimits`): sums of weights saturate at 2^53 - 1
/// with a warning, a merge that would count a group past it refuses the object, and nothing
/// traps or wraps, whatever number a record or group object holds.
@Suite struct LimitTests {
  static let largest = FieldLimits.largest

  static func object(
    app: String = "com.example.chat", count: String, unread: String = "1", fresh: String = "1",
    moreCount: String, moreWeight: String, categories: [(count: String, weight: String)],
    arguments: [(String, String)] = [], items: [String]? = nil, omitted: String? = nil,
    limit: String = "null"
  ) -> String {
    limitGroupObject(
      app: app, count: count, unread: unread, fresh: fresh, moreCount: moreCount,
      moreWeight: moreWeight, categories: categories, arguments: arguments, items: items,
      omitted: omitted, limit: limit)
  }

  static func object(count: Int64, app: String = "com.example.chat") -> String {
    limitGroupObject(count: count, app: app)
  }

  @Test func mergeRefusesAnObjectThatWouldCountAGroupPastTheLimit() {
    let half = Int64(1) << 52
    let result = group(["--merge"], [Self.object(count: half), Self.object(count: half)])
    #expect(result.status == .rejected)
    #expect(result.lines == [Self.object(count: half)])
    #expect(
      result.stderr
        == "notif-group: input1:2:51: error: 'count' 4503599627370496 and the 4503599627370496 "
        + "merged before it add up to more than 9007199254740991, the most a group counts "
        + "[GroupTooLarge]\n")
  }

  @Test func mergeTakesAGroupUpToTheLimitExactly() {
    let half = Int64(1) << 52
    let result = group(
      ["--merge"], [Self.object(count: half), Self.object(count: half - 1)])
    #expect(result.status == .success, "\(result.stderr)")
    #expect(value("count", in: result.lines[0]) == "\(Self.largest)")
    #expect(value("more_count", in: result.lines[0]) == "\(Self.largest - 1)")
  }

  @Test func aRefusedObjectSettlesNothing() {
    // The second object, the first with items, would settle --item-limit 5 were it merged: refused,
    // the third settles --item-limit 3.
    func withItems(app: String, limit: String) -> String {
      Self.object(
        app: app, count: "1", moreCount: "0", moreWeight: "0", categories: [],
        items: [record("lead", app: app, thread: "t", at: "2026-11-22T09:05:00Z")],
        omitted: "0", limit: limit)
    }
    let result = group(
      ["--merge"],
      [
        Self.object(count: Self.largest), withItems(app: "com.example.chat", limit: "5"),
        withItems(app: "com.example.mail", limit: "3"),
      ])
    #expect(result.status == .rejected)
    #expect(result.lines.count == 2)
    #expect(result.stderr.contains("[GroupTooLarge]"))
    #expect(!result.stderr.contains("[GroupingMismatch]"))
  }

  @Test func weightsSaturateAtTheLimitWithAWarning() {
    let records = (1...3).map {
      record("r\($0)", at: "2026-11-22T09:0\($0):00Z", summaryArgCount: "\(Self.largest)")
    }
    let result = group(["--no-items"], records)
    #expect(result.status == .success)
    #expect(value("more_weight", in: result.lines[0]) == "\(Self.largest)")
    #expect(
      value("more_categories", in: result.lines[0])
        == #"[{"category":null,"count":2,"weight":9007199254740991}]"#)
    #expect(
      result.stderr
        == "notif-group: <stdout>:1: warning: 'more_weight', the sum of the non-leading records' "
        + "'summary_arg_count', passes 9007199254740991: written as 9007199254740991, and so is "
        + "every category 'weight' that passes it [WeightSaturated]\n")
  }

  @Test func aWeightAtTheLimitIsNoWarning() {
    let records = [
      record("a", at: "2026-11-22T09:01:00Z", summaryArgCount: "\(Self.largest - 1)"),
      record("b", at: "2026-11-22T09:02:00Z", summaryArgCount: "1"),
      record("lead", at: "2026-11-22T09:03:00Z", summaryArgCount: "\(Self.largest)"),
    ]
    let result = group(["--no-items"], records)
    #expect(result.stderr == "")
    #expect(value("more_weight", in: result.lines[0]) == "\(Self.largest)")
  }

  /// The group object does not depend on the order in which threads add their parts up, and
  /// the warning is about the object, at its line of the output: the same with any chunks.
  @Test(arguments: [300, 1024, 4096])
  func saturationIsTheSameInChunksAsInOneThread(_ chunkSize: Int) throws {
    let input = (0..<60).map { n in
      record(
        "r\(n)", thread: n % 3 == 0 ? "a" : "b", at: "2026-11-22T09:\(10 + n % 40):00Z",
        category: n % 2 == 0 ? "MESSAGE" : nil,
        summaryArgCount: n % 5 == 0 ? "\(Self.largest / 4)" : "1") + "\n"
    }.joined()
    let one = try ChunkedGroupingTests.run(input, ["-j", "1", "--no-items"])
    let chunked = try ChunkedGroupingTests.run(
      input, ["-j", "2", "--no-items"], chunkSize: chunkSize)
    #expect(chunked.0 == one.0)
    #expect(one.0.stderr.contains("[WeightSaturated]"))
    #expect(chunked.accepted > 0)
  }

  @Test func mergingSaturatedPartsGivesTheBytesOfOneRun() {
    let records = (0..<12).map {
      record(
        "r\($0)", at: "2026-11-22T09:\(10 + $0):00Z", category: $0 % 2 == 0 ? "A" : "B",
        summaryArgCount: "\(Self.largest / 3)")
    }
    let whole = group(["--no-items"], records)
    let parts = [Array(records[..<5]), Array(records[5...])].map {
      group(["--no-items"], $0).stdout
    }
    let merged = group(["--merge"], inputs: parts)
    #expect(merged.stdout == whole.stdout)
    #expect(merged.stderr == whole.stderr)
    #expect(merged.stderr.contains("[WeightSaturated]"))
  }

  @Test func aLimitPast2To31IsWrittenAndMergedBack() {
    let records = [record("a", at: "2026-11-22T09:01:00Z"), record("b")]
    let made = group(["--item-limit", "3000000000"], records)
    #expect(made.status == .success)
    #expect(made.stdout.contains(#""limit":3000000000"#))
    let merged = group(["--merge"], inputs: [made.stdout, made.stdout])
    #expect(merged.status == .success, "\(merged.stderr)")
    #expect(value("count", in: merged.lines[0]) == "4")
  }

  @Test(arguments: [
    (
      ["--item-limit", "9007199254740992"],
      "--item-limit: '9007199254740992' is too large: at most 9007199254740991"
    ),
    (
      ["--item-limit", "99999999999999999999"],
      "--item-limit: '99999999999999999999' is too large: at most 9007199254740991"
    ),
    (
      ["--item-limit", "1e3"],
      "--item-limit: '1e3' is not a whole number from 1 to 9007199254740991"
    ),
  ])
  func aLimitTooLargeSaysTheMost(_ arguments: [String], _ message: String) {
    let result = group(arguments, [record("a")])
    #expect(result.status == .failure)
    #expect(result.stderr.hasPrefix("notif-group: \(message)\n"))
  }

  @Test func categoriesMustAddUpToTheCounts() {
    let duplicated = Self.object(
      count: "3", moreCount: "2", moreWeight: "2", categories: [("2", "1"), ("2", "1")])
    let result = group(["--merge"], [duplicated])
    #expect(result.status == .rejected)
    #expect(
      result.stderr.hasSuffix(
        "error: 'more_categories' must add up to 'more_count' (2) and 'more_weight' (2) [BadGroupObject]\n"
      ))
  }

  @Test func summaryArgumentsCountNoMoreThanTheRecords() {
    let many = Self.object(
      count: "3", moreCount: "2", moreWeight: "2", categories: [("2", "2")],
      arguments: [("Ann", "2"), ("Bob", "1")])
    let result = group(["--merge"], [many])
    #expect(result.status == .rejected)
    #expect(
      result.stderr.hasSuffix(
        "error: 'more_summary_args' counts more records than 'more_count' (2) [BadGroupObject]\n"))
  }

  @Test func aSaturatedObjectIsMergedAsItIs() {
    let saturated = Self.object(
      count: "3", moreCount: "2", moreWeight: "\(Self.largest)",
      categories: [("1", "\(Self.largest)"), ("1", "\(Self.largest)")]
    ).replacing(
      #""category":"MESSAGE","count":1,"weight":9007199254740991},{"category":"MESSAGE""#,
      with: #""category":"A","count":1,"weight":9007199254740991},{"category":"B""#)
    let result = group(["--merge"], [saturated])
    #expect(result.status == .success, "\(result.stderr)")
    #expect(result.stderr == "")
    #expect(result.lines == [saturated])
  }

  // MARK: - Every limit number in every numeric field

  /// Two copies of the object merged: no trap, exit 0 or 1, and every diagnostic names the
  /// field and its real range (or the most a group counts, or a weight saturates at).
  @Test(arguments: LimitField.allCases)
  func everyLimitNumberInEveryField(_ field: LimitField) {
    for number in LimitNumbers.all {
      let text = field.object(number)
      let accepted = field.isAccepted(number, by: .merge)
      let keys = field.keys
      let result = group(["--merge"], [text, text])
      #expect(
        result.status == (accepted ? .success : .rejected)
          || result.stderr.contains("GroupTooLarge"),
        "\(field) \(number): \(result.stderr)")
      for line in result.stderr.split(separator: "\n") {
        #expect(
          keys.contains { line.contains("'\($0)'") }, "\(field) \(number): \(line)")
        #expect(
          line.contains(
            /from -?[0-9]+ to [0-9]+|equal to -?[0-9]+|add up to|more records than|9007199254740991/
          ),
          "\(field) \(number): \(line)")
      }
    }
  }

  /// A record's `summary_arg_count`, `relevance` and `badge` at every limit number.
  @Test(arguments: ["summary_arg_count", "relevance", "badge"])
  func everyLimitNumberInARecord(_ key: String) {
    for number in LimitNumbers.all {
      let records = ["a", "b", "c"].enumerated().map { n, id in
        "{\"id\":\"\(id)\",\"app\":\"x\",\"title\":\"t\",\"created_at\":\"2026-11-22T09:0\(n):00Z\",\"\(key)\":\(number)}"
      }
      let result = group(["--no-items"], records)
      #expect(result.status == .success, "\(key) \(number): \(result.stderr)")
      let whole = LimitNumbers.isWhole(number, in: 1...Self.largest)
      let weight = value("more_weight", in: result.lines.first ?? "")
      if key == "summary_arg_count" {
        let expected =
          whole ? min(2 * (LimitNumbers.integer(number) ?? 0), Self.largest) : 2
        #expect(weight == "\(expected)", "\(number)")
      } else {
        #expect(weight == "2")
      }
      for line in result.stderr.split(separator: "\n") {
        #expect(line.contains("'summary_arg_count'") && line.contains("9007199254740991"))
      }
      let merged = group(["--merge"], inputs: [result.stdout, result.stdout])
      #expect(merged.status == .success, "\(key) \(number): \(merged.stderr)")
    }
  }
}
