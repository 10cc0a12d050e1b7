import Foundation
import NotifCLI
import NotifJSON
import NotifModel
import NotifText
import TestSupport
import Testing

@testable import notif_show

/// Runs notif-show in this process on `input` (a file) with `arguments`; returns the exit
/// status and what it wrote.
func show(
  _ input: String, _ arguments: [String], environment: (inout ToolEnvironment) -> Void = { _ in }
) throws -> (status: NotifModel.ExitStatus, out: String, err: String) {
  let dir = try makeScratchFolder("notif-show-test")
  defer { try? FileManager.default.removeItem(at: dir) }
  let file = dir.appendingPathComponent("input.ndjson")
  try Data(input.utf8).write(to: file)
  var tool = ToolEnvironment(arguments: arguments + [file.path])
  environment(&tool)
  let (status, out, err) = try capturingOutput { stdout, stderr in
    ShowCommand.run(environment: tool, stdout: &stdout, stderr: &stderr)
  }
  return (status, out, err.replacingOccurrences(of: file.path, with: "FILE"))
}

let now = "2026-11-22T09:00:00Z"

@Suite struct RelativeTimeTests {
  @Test(arguments: [
    ("2026-11-22T09:00:00Z", "now"), ("2026-11-22T08:59:01Z", "now"),
    ("2026-11-22T09:00:59Z", "now"), ("2026-11-22T08:59:00Z", "1m"),
    ("2026-11-22T08:00:01Z", "59m"), ("2026-11-22T08:00:00Z", "1h"),
    ("2026-11-22T00:00:00Z", "9h"), ("2026-11-21T23:59:59Z", "Yesterday"),
    ("2026-11-21T08:30:00Z", "Yesterday"), ("2026-11-21T00:00:00Z", "Yesterday"),
    ("2026-11-20T23:59:59Z", "2026-11-20"), ("2025-01-02T03:04:05Z", "2025-01-02"),
    ("2026-11-22T09:01:00Z", "2026-11-22"), ("2026-12-25T00:00:00Z", "2026-12-25"),
  ])
  func theRulesOfTheManPage(_ time: String, _ expected: String) throws {
    let reference = try Timestamp(rfc3339: now)
    #expect(RelativeTime.text(try Timestamp(rfc3339: time), now: reference) == expected)
  }

  @Test func lessThanAnHourAgoIsMinutesAcrossMidnight() throws {
    let reference = try Timestamp(rfc3339: "2026-11-22T00:10:00Z")
    #expect(
      RelativeTime.text(try Timestamp(rfc3339: "2026-11-21T23:50:00Z"), now: reference) == "20m")
  }
}

@Suite struct HostileTextTests {
  /// A title and a body with a screen clear, an OSC 52 clipboard write, an OSC 8 link, C0 and C1
  /// controls and bidi overrides: each written visibly, byte for byte as here.
  static let record =
    #"{"app":"com.example.chat\u001b[31m","created_at":"2026-11-22T08:55:00Z","#
    + #""title":"\u001b[2J\u001b[HHello","subtitle":"\u202eexe.txt\u202c and \u2066iso\u2069","#
    + #""body":"copy \u001b]52;c;cm0gLXJmIH4K\u0007 now\r\nlink \u001b]8;;https://evil.example/\u001b\\here\u001b]8;;\u001b\\ \u009b31m c1 \u0085 nel \u0000\u007f\ttab","#
    + #""target_content_id":"\u001bP+q\u001b\\"}"# + "\n"

  @Test func everyControlIsWrittenVisibly() throws {
    let result = try show(Self.record, ["--now", now, "--width", "100", "--color", "never"])
    #expect(result.status == .success)
    // The card is 64 columns, the measure, on a line of 100: no mark but the new badge, the
    // app, spaces, the badge and the time. The target identifies the item: it is not shown.
    let header = #"  com.example.chat\e[31m"# + String(repeating: " ", count: 34) + "NEW 5m\n"
    let expected =
      "Notifications · 1 unread\n\nToday\n" + header + #"""
          \e[2J\e[HHello
          \u{202E}exe.txt\u{202C} and \u{2066}iso\u{2069}
          copy \e]52;c;cm0gLXJmIH4K\u{7} now
          link \e]8;;https://evil.example/\e\here\e]8;;\e\ \u{9B}31m c1…

        """#
    #expect(result.out == expected)
    // The rest of the body, on one line of --oneline.
    let oneline = try show(Self.record, ["--now", now, "--width", "300", "--oneline"])
    #expect(oneline.out.hasSuffix(#"c1 \u{85} nel \u{0}\u{7F}\ttab"# + "\n"))
    #expect(!result.out.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    #expect(!result.out.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) })
    #expect(
      !result.out.unicodeScalars.contains {
        [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F]
          .contains($0.value)
      })
  }

  /// With color, the only escape sequences are notif-show's own SGR ones.
  @Test func withColorTheOnlyEscapesAreSGR() throws {
    let result = try show(Self.record, ["--now", now, "--width", "100", "--color", "always"])
    let stripped = result.out.replacingOccurrences(
      of: "\u{1B}\\[[0-9;]*m", with: "", options: String.CompareOptions.regularExpression)
    #expect(!stripped.contains("\u{1B}"))
    #expect(result.out.contains("\u{1B}[1m\\e[2J\\e[HHello\u{1B}[0m"))
  }

  @Test func theHTMLPageEscapesMarkupAndControls() throws {
    let record =
      #"{"app":"<b>app</b>","created_at":"2026-11-22T08:55:00Z","title":"\"><img src=x onerror=alert(1)>","#
      + #""body":"<script>alert('x')</script> & javascript:alert(1) \u001b[2J \u202e","#
      + #""target_content_id":"javascript:alert(1)"}"# + "\n"
    let result = try show(record, ["--now", now, "--to", "html"])
    #expect(
      result.out.contains(
        "<h3 class=\"title\" dir=\"auto\">&quot;&gt;&lt;img src=x onerror=alert(1)&gt;</h3>"))
    #expect(
      result.out.contains(
        "<p class=\"body\" dir=\"auto\">&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; javascript:alert(1) \\e[2J \\u{202E}</p>"
      ))
    #expect(
      result.out.contains(
        "<span class=\"app\" dir=\"auto\" title=\"&lt;b&gt;app&lt;/b&gt;\">&lt;b&gt;app&lt;/b&gt;</span>"
      ))
    // Its initial, on its color: the first character of its name, escaped too.
    #expect(result.out.contains("aria-hidden=\"true\">?</span>"))
    #expect(!result.out.contains("<script"))
    #expect(!result.out.contains("<img"))
    #expect(!result.out.contains("href"))
  }
}

@Suite struct ShowOptionTests {
  static let records =
    [
      #"{"app":"a","created_at":"2026-11-22T08:00:00Z","title":"old","relevance":0.9}"#,
      #"{"app":"a","created_at":"2026-11-22T08:50:00Z","title":"new","relevance":0.1}"#,
      #"{"app":"a","created_at":"2026-11-22T08:30:00Z","title":"mid"}"#,
    ].joined(separator: "\n") + "\n"

  /// The titles of the cards, in the order shown.
  func titles(_ out: String) -> [String] {
    out.split(separator: "\n").map { String($0.drop { $0 == " " }) }.filter {
      ["old", "mid", "new"].contains($0)
    }
  }

  @Test func feedIsNewestFirstAndChatNewestLast() throws {
    #expect(titles(try show(Self.records, ["--now", now]).out) == ["new", "mid", "old"])
    #expect(
      titles(try show(Self.records, ["--now", now, "--order", "chat"]).out) == [
        "old", "mid", "new",
      ])
  }

  @Test func sortRelevanceRanksByRelevanceThenTime() throws {
    let out = try show(Self.records, ["--now", now, "--sort", "relevance"]).out
    #expect(titles(out) == ["old", "new", "mid"])
    #expect(out.contains("relevance 0.9 NEW 1h"))
  }

  /// --limit keeps the first of the feed (the newest), and the chat view lists them newest last.
  @Test func limitKeepsTheFirstOfTheFeed() throws {
    #expect(titles(try show(Self.records, ["--now", now, "--limit", "2"]).out) == ["new", "mid"])
    #expect(
      titles(try show(Self.records, ["--now", now, "--limit", "2", "--order", "chat"]).out) == [
        "mid", "new",
      ])
  }

  /// fuzz/regressions/show: at width 23 a stack's header with its relevance, badge and date
  /// was wider than the line. The time stays, the relevance and then the badge give way.
  @Test(arguments: 20...30)
  func aNarrowHeaderDropsRelevanceThenBadge(_ width: Int) throws {
    let record =
      #"{"app":"com.example.food","created_at":"2025-11-21T08:00:00Z","title":"t","relevance":0.25}"#
    let out = try show(
      record + "\n", ["--now", now, "--sort", "relevance", "--width", "\(width)"]
    ).out
    // The list's header, a blank line, then the card's (no day sections by relevance).
    let lines = out.split(separator: "\n", omittingEmptySubsequences: false)
    let header = try #require(lines.dropFirst(2).first)
    #expect(header.unicodeScalars.count == width, "\(header)")
    #expect(header.hasSuffix("2025-11-21"))
  }

  /// The width is the terminal's, else COLUMNS, else 80; a card is at most 64 of it.
  @Test func widthComesFromTheTerminalThenColumnsThen80() throws {
    func headerWidth(_ tweak: @escaping (inout ToolEnvironment) -> Void) throws -> Int {
      let out = try show(Self.records, ["--now", now], environment: tweak).out
      return out.split(separator: "\n").first { $0.hasSuffix(" 10m") }?.unicodeScalars.count ?? 0
    }
    #expect(try headerWidth { _ in } == 64)
    #expect(try headerWidth { $0.columnsVariable = "50" } == 50)
    #expect(try headerWidth { $0.columnsVariable = "wide" } == 64)
    #expect(
      try headerWidth {
        $0.columnsVariable = "50"; $0.terminalColumns = 40
      } == 40)
  }

  @Test func colorAutoNeedsATerminalAndNoNoColor() throws {
    func colored(_ arguments: [String], _ tweak: @escaping (inout ToolEnvironment) -> Void) throws
      -> Bool
    {
      try show(Self.records, ["--now", now] + arguments, environment: tweak).out.contains("\u{1B}[")
    }
    #expect(try !colored([]) { _ in })
    #expect(try colored([]) { $0.stdoutIsTerminal = true })
    #expect(
      try !colored([]) {
        $0.stdoutIsTerminal = true; $0.noColor = true
      })
    #expect(try colored(["--color", "always"]) { $0.noColor = true })
    #expect(try !colored(["--color", "never"]) { $0.stdoutIsTerminal = true })
  }

  @Test(arguments: [
    (["--order", "list"], "notif-show: --order: 'list' is not feed or chat"),
    (["--width", "19"], "notif-show: --width: '19' is not a whole number from 20 to 1000"),
    (
      ["--limit", "0"], "notif-show: --limit: '0' is not a whole number from 1 to 9007199254740991"
    ),
    (["--color", "yes"], "notif-show: --color: 'yes' is not auto, always or never"),
    (["--to", "json"], "notif-show: --to: 'json' is not text, html or email"),
    (
      ["--format", "html"],
      "notif-show: --format: 'html' is not text, github, json or sarif: --format is the "
        + "diagnostics' form; what to write is '--to html'"
    ),
  ])
  func usageErrors(_ arguments: [String], _ message: String) throws {
    let result = try show("", ["--now", now] + arguments)
    #expect(result.status == .failure)
    #expect(result.err.hasPrefix(message + "\nusage: notif-show"))
  }
}

/// The action line at any width: wrapped between actions, never wider than the line, none lost.
@Suite struct ActionLineTests {
  static let registry = """
    {"message": {"actions": [
      {"identifier": "reply", "title": "Reply"},
      {"identifier": "read", "title": "Mark as Read"},
      {"identifier": "snooze", "title": "Remind Me Tomorrow Morning at Nine"},
      {"identifier": "delete", "title": "Delete", "options": ["destructive"]}]},
     "invite": {"actions": [
      {"identifier": "accept", "title": "参加する 👨‍👩‍👧‍👦 家族みんなで行きます"},
      {"identifier": "decline", "title": "Decline"}]}}
    """
  static let records =
    [
      #"{"app":"com.example.chat","category":"message","title":"Ann","created_at":"2026-11-22T08:58:00Z","target_content_id":"thread-ann"}"#,
      #"{"app":"com.example.calendar","category":"invite","title":"Dinner","created_at":"2026-11-22T08:50:00Z"}"#,
    ].joined(separator: "\n") + "\n"

  @Test(arguments: 20...90)
  func actionsWrapBetweenActionsAndNoneIsLost(_ width: Int) throws {
    let folder = try makeScratchFolder("notif-show-actions")
    defer { try? FileManager.default.removeItem(at: folder) }
    let registry = folder.appendingPathComponent("categories.json")
    try Data(Self.registry.utf8).write(to: registry)
    let out = try show(
      Self.records, ["--now", now, "--width", "\(width)", "--categories", registry.path]
    ).out
    let lines = out.split(separator: "\n", omittingEmptySubsequences: false)
    for line in lines {
      #expect(DisplayWidth.of(String(line)) <= width, "\(width): '\(line)'")
    }
    // Each action is shown whole, or cut with the ellipsis on a line of its own.
    for title in [
      "Reply", "Mark as Read", "Remind Me Tomorrow Morning at Nine", "Delete",
      "参加する 👨‍👩‍👧‍👦 家族みんなで行きます", "Decline",
    ] {
      let shown =
        out.contains(title)
        || lines.contains { line in
          let text = line.drop { $0 == " " }
          return text.hasSuffix("\u{2026}") && title.hasPrefix(text.dropLast())
        }
      #expect(shown, "\(width): '\(title)' is lost:\n\(out)")
    }
  }
}
