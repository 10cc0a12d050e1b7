import NotifModel
import Testing

@testable import NotifCLI

private let specs: [OptionSpec] = [
  .flag("check", "c"), .flag("strict", "s"), .value("app", "a"), .value("format"),
  .flag("help", "h"),
]

typealias Option = ScannedArguments.Option

@Suite struct OptionScannerTests {
  static let accepted: [([String], [Option], [String])] = [
    ([], [], []),
    (["-cs"], [Option(name: "check"), Option(name: "strict")], []),
    (["-c", "-s"], [Option(name: "check"), Option(name: "strict")], []),
    (
      ["-csa", "com.x"],
      [Option(name: "check"), Option(name: "strict"), Option(name: "app", value: "com.x")], []
    ),
    (["-acom.x"], [Option(name: "app", value: "com.x")], []),
    (["-cacs"], [Option(name: "check"), Option(name: "app", value: "cs")], []),
    (["--app=com.x"], [Option(name: "app", value: "com.x")], []),
    (["--app", "com.x"], [Option(name: "app", value: "com.x")], []),
    (["--app="], [Option(name: "app", value: "")], []),
    (["--format=a=b"], [Option(name: "format", value: "a=b")], []),
    (["--app", "-c"], [Option(name: "app", value: "-c")], []),
    (["--", "-c", "--app"], [], ["-c", "--app"]),
    (["-c", "--", "--", "x"], [Option(name: "check")], ["--", "x"]),
    (["--"], [], []),
    (["-"], [], ["-"]),
    (["a.ndjson", "-c", "-", "b.ndjson"], [Option(name: "check")], ["a.ndjson", "-", "b.ndjson"]),
    (["--check", "--check"], [Option(name: "check"), Option(name: "check")], []),
  ]

  @Test(arguments: accepted)
  func scansOptionsAndOperands(_ arguments: [String], _ options: [Option], _ operands: [String])
    throws
  {
    #expect(
      try OptionScanner.scan(arguments, specs)
        == ScannedArguments(options: options, operands: operands))
  }

  @Test(arguments: [
    (["--nope"], "unknown option '--nope'"),
    (["--nope=1"], "unknown option '--nope'"),
    (["-x"], "unknown option '-x'"),
    (["-cx"], "unknown option '-x'"),
    (["--app"], "option '--app' needs a value"),
    (["-c", "-a"], "option '-a' needs a value"),
    (["--format"], "option '--format' needs a value"),
    (["--check=yes"], "option '--check' takes no value"),
    (["--check="], "option '--check' takes no value"),
    (["--Check"], "unknown option '--Check'"),
  ])
  func rejectsBadOptionsWithAMessage(_ arguments: [String], _ message: String) {
    #expect(throws: UsageError(message)) { try OptionScanner.scan(arguments, specs) }
  }

  @Test func laterValuesWinAndAllAreKept() throws {
    let scanned = try OptionScanner.scan(["--app", "one", "-c", "--app=two", "-atwo2"], specs)
    #expect(scanned.last("app") == "two2")
    #expect(scanned.all("app") == ["one", "two", "two2"])
    #expect(scanned.has("check"))
    #expect(!scanned.has("strict"))
    #expect(scanned.last("format") == nil)
    #expect(scanned.all("format") == [])
  }

  @Test(arguments: [
    ("0", 0), ("7", 7), ("0042", 42), ("9223372036854775807", Int.max),
    ("", nil), ("-1", nil), ("+1", nil), (" 1", nil), ("1.0", nil), ("1e3", nil), ("١", nil),
    ("9223372036854775808", nil),
  ])
  func wholeNumbersAreDecimalDigitsOnly(_ text: String, _ value: Int?) {
    #expect(OptionScanner.wholeNumber(text) == value)
  }

  /// `--limit`-like options: a whole number in a range of `FieldLimits`, and a message that
  /// says the range, or "at most" for digits past it.
  @Test(arguments: [
    ("1", "1"), ("9007199254740991", "9007199254740991"), ("007", "7"),
    ("0", "--limit: '0' is not a whole number from 1 to 9007199254740991"),
    ("-1", "--limit: '-1' is not a whole number from 1 to 9007199254740991"),
    ("1.0", "--limit: '1.0' is not a whole number from 1 to 9007199254740991"),
    ("", "--limit: '' is not a whole number from 1 to 9007199254740991"),
    ("9007199254740992", "--limit: '9007199254740992' is too large: at most 9007199254740991"),
    (
      "18446744073709551616",
      "--limit: '18446744073709551616' is too large: at most 9007199254740991"
    ),
  ])
  func optionsInAFieldsRangeSayTheRange(_ text: String, _ outcome: String) {
    do {
      #expect(try "\(FieldLimits.option("limit", text, in: FieldLimits.positive))" == outcome)
    } catch {
      #expect(error.message == outcome)
    }
  }

  @Test func usageErrorDescriptionIsItsMessage() {
    #expect(UsageError("bad").description == "bad")
  }
}
