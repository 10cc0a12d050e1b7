import NotifModel
import Testing

@testable import notif_group

/// `grouping`: every group object records the options that made it, and `--merge` takes its
/// options from the objects, refusing those it cannot merge exactly.
@Suite struct MergeGroupingTests {
  static let input = MergeTests.records(count: 90, seed: 11)

  /// The group objects of `records` grouped with `options`.
  static func groups(_ options: [String], _ records: ArraySlice<String>) -> String {
    let result = group(options, Array(records))
    #expect(result.status == .success, "\(result.stderr)")
    return result.stdout
  }

  /// A plain `--merge` of parts made with any options gives the bytes of one run with them.
  @Test(
    arguments: MergeTests.optionSets + [
      ["--last-seen", "2026-11-22T09:02:00Z", "--item-limit", "1"]
    ])
  func aPlainMergeTakesItsOptionsFromTheObjects(_ options: [String]) {
    let whole = Self.groups(options, Self.input[...])
    let parts = [
      Self.groups(options, Self.input[..<30]), Self.groups(options, Self.input[30..<31]),
      Self.groups(options, Self.input[31...]),
    ]
    let merged = group(["--merge"], inputs: parts)
    #expect(merged.status == .success, "\(merged.stderr)")
    #expect(merged.stderr == "")
    #expect(merged.stdout == whole, "\(options)")
  }

  @Test func theObjectsRecordTheOptionsThatMadeThem() {
    let line = group(
      [
        "--by", "app", "--sort", "relevance", "--order", "chat", "--item-limit", "4", "--last-seen",
        "@1795338000",
      ], Array(Self.input[..<5])
    ).lines[0]
    #expect(
      value("grouping", in: line)
        == #"{"by":"app","sort":"relevance","order":"chat","limit":4,"#
        + #""last_seen":"2026-11-22T09:00:00Z","all_pushes":false}"#)
    let none = group(["--no-items", "--by", "none"], Array(Self.input[..<5])).lines[0]
    #expect(
      value("grouping", in: none)
        == #"{"by":"none","sort":"time","order":"feed","limit":null,"last_seen":null,"#
        + #""all_pushes":false}"#)
  }

  /// Objects made one way, then objects made another: every object of the second kind is
  /// rejected, at the value that differs, and those of the first are merged alone.
  @Test(arguments: [
    (
      ["--no-items"], ["--no-items", "--sort", "relevance"], [String](),
      "made with --sort relevance, not --sort time as the group objects before it"
    ),
    (
      ["--no-items"], ["--no-items", "--by", "app"], [],
      "made with --by app, not --by thread as the group objects before it"
    ),
    (
      ["--no-items"], ["--no-items", "--order", "chat"], [],
      "made with --order chat, not --order feed as the group objects before it"
    ),
    (
      ["--item-limit", "2"], ["--item-limit", "3"], [],
      "made with --item-limit 3, not --item-limit 2 as the group objects before it"
    ),
    (
      [], ["--item-limit", "3"], [],
      "made with --item-limit 3, not no --item-limit as the group objects before it"
    ),
    (
      ["--no-items", "--last-seen", "2026-11-22T09:01:00Z"],
      ["--no-items", "--last-seen", "2026-11-22T09:02:00Z"], [],
      "made with --last-seen 2026-11-22T09:02:00Z, not --last-seen 2026-11-22T09:01:00Z as the group objects before it"
    ),
    (
      ["--no-items"], ["--no-items", "--last-seen", "2026-11-22T09:02:00Z"], [],
      "made with --last-seen 2026-11-22T09:02:00Z, not no --last-seen as the group objects before it"
    ),
    (
      ["--no-items"], ["--no-items", "--sort", "relevance"], ["--sort", "time"],
      "made with --sort relevance, not this merge's --sort time"
    ),
    (
      ["--no-items"], ["--no-items", "--by", "app"], ["--by", "thread"],
      "made with --by app, which this merge's --by thread cannot split"
    ),
    (
      ["--item-limit", "5"], ["--item-limit", "2"], ["--item-limit", "3"],
      "made with --item-limit 2, which this merge's --item-limit 3 cannot fill"
    ),
  ])
  func objectsMadeOtherwiseAreRejected(
    _ first: [String], _ second: [String], _ merge: [String], _ message: String
  ) {
    let a = Self.groups(first, Self.input[..<40])
    let b = Self.groups(second, Self.input[40...])
    let result = group(["--merge"] + merge, inputs: [a, b])
    let lines = result.stderr.split(separator: "\n")
    #expect(result.status == .rejected)
    #expect(lines.count == b.split(separator: "\n").count)
    #expect(
      lines.allSatisfy {
        $0.hasPrefix("notif-group: input2:") && $0.hasSuffix(message + Self.tail)
      },
      "\(result.stderr)")
    #expect(result.stdout == group(["--merge"] + merge, inputs: [a]).stdout)
  }

  static let tail = ": merged, the groups would not be those of one run [GroupingMismatch]"

  @Test func theMismatchPointsAtTheValueThatDiffers() {
    let a = Self.groups(["--no-items"], Self.input[..<40])
    let b = Self.groups(["--no-items", "--sort", "relevance"], Self.input[40...])
    let firstLine = String(b.split(separator: "\n")[0])
    let result = group(["--merge"], inputs: [a, b])
    // The column of the value "relevance", in Unicode scalars: the records hold non-ASCII text.
    let marker = #""grouping":{"by":"thread","sort":"#
    let before = firstLine[..<(firstLine.firstRange(of: marker)?.lowerBound ?? firstLine.endIndex)]
    let column = before.unicodeScalars.count + marker.count + 1
    let expected =
      "notif-group: input2:1:\(column): error: made with --sort relevance, not --sort time "
      + "as the group objects before it" + Self.tail
    #expect(result.stderr.split(separator: "\n").first.map(String.init) == expected)
  }

  @Test func coarserGroupsAndFewerItemsCanBeAskedFor() {
    let threads = Self.groups(["--by", "none", "--item-limit", "3"], Self.input[..<50])
    let rest = Self.groups(["--by", "thread"], Self.input[50...])
    let merged = group(["--merge", "--by", "app", "--item-limit", "2"], inputs: [threads, rest])
    #expect(merged.status == .success, "\(merged.stderr)")
    #expect(merged.stdout == Self.groups(["--by", "app", "--item-limit", "2"], Self.input[...]))
    let chat = group(["--merge", "--order", "chat"], inputs: [rest])
    #expect(chat.stdout == Self.groups(["--order", "chat"], Self.input[50...]))
  }

  @Test func aRejectedObjectSettlesNothing() {
    // The first object is refused by the command line; the objects after it are merged with
    // the command line's options, not the refused object's.
    let byApp = Self.groups(["--no-items", "--by", "app"], Self.input[..<30])
    let byThread = Self.groups(["--no-items"], Self.input[30...])
    let result = group(["--merge", "--by", "thread"], inputs: [byApp, byThread])
    #expect(result.status == .rejected)
    #expect(!result.stderr.contains("--sort"))
    #expect(result.stdout == Self.groups(["--no-items"], Self.input[30...]))
  }

  /// Objects of an older notif-group: without `grouping`.
  static func unrecorded(_ lines: String) -> String {
    lines.replacing(#/,"grouping":\{[^}]*\}/#, with: "")
  }

  @Test func objectsWithoutGroupingMergeAsMadeWithTheMergesOptionsWithAWarningPerFile() {
    let options = ["--no-items", "--sort", "relevance"]
    let parts = [
      Self.unrecorded(Self.groups(options, Self.input[..<45])),
      Self.unrecorded(Self.groups(options, Self.input[45...])),
    ]
    let merged = group(["--merge", "--sort", "relevance"], inputs: parts)
    #expect(merged.status == .success)
    #expect(merged.stdout == Self.groups(options, Self.input[...]))
    let warning =
      ":1:1: warning: a group object without 'grouping' (made by an older notif-group): "
      + "merged unchecked, as if made with --by thread --sort relevance --order feed "
      + "[UnrecordedGrouping]"
    #expect(
      merged.stderr
        == "notif-group: input1" + warning + "\nnotif-group: input2" + warning + "\n")
    // With objects that record theirs, those settle what the command line leaves open.
    let mixed = group(
      ["--merge"], inputs: [Self.groups(options, Self.input[..<45]), parts[1]])
    #expect(mixed.stdout == Self.groups(options, Self.input[...]))
    #expect(mixed.stderr.contains("input2:1:1: warning:"))
  }

  @Test(arguments: [
    (#"[]"#, "'grouping' is an array, not an object"),
    (#"{"by":"thread"}"#, "'grouping' has no 'sort'"),
    (
      #"{"by":"thread","sort":"time","order":"feed","limit":null,"last_seen":null,"x":1}"#,
      "unknown key 'x' in 'grouping'"
    ),
    (
      #"{"by":"topic","sort":"time","order":"feed","limit":null,"last_seen":null}"#,
      "'grouping.by' is not thread, app or none"
    ),
    (
      #"{"by":"thread","sort":1,"order":"feed","limit":null,"last_seen":null}"#,
      "'grouping.sort' is not time or relevance"
    ),
    (
      #"{"by":"thread","sort":"time","order":"up","limit":null,"last_seen":null}"#,
      "'grouping.order' is not feed or chat"
    ),
    (
      #"{"by":"thread","sort":"time","order":"feed","limit":0,"last_seen":null}"#,
      "'grouping.limit' is not a whole number from 1 to 9007199254740991, nor null"
    ),
    (
      #"{"by":"thread","sort":"time","order":"feed","limit":null,"last_seen":"today"}"#,
      "'grouping.last_seen' is not an RFC 3339 time: 'today'"
    ),
    (
      #"{"by":"thread","sort":"time","order":"feed","limit":null,"last_seen":null,"#
        + #""all_pushes":"yes"}"#,
      "'grouping.all_pushes' is not true or false"
    ),
  ])
  func badGroupingIsABadGroupObject(_ grouping: String, _ message: String) {
    let good = Self.groups(["--no-items"], Self.input[..<5]).split(separator: "\n")[0]
    let bad = good.replacing(#/"grouping":\{[^}]*\}/#, with: #""grouping":"# + grouping)
    let result = group(["--merge"], inputs: [bad + "\n"])
    #expect(result.status == .rejected)
    #expect(
      result.stderr.hasSuffix(": error: " + message + " [BadGroupObject]\n"), "\(result.stderr)")
  }
}
