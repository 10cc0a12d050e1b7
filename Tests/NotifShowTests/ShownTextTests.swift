import Foundation
import NotifJSON
import Testing

@testable import notif_show

/// notif-show keeps of each string what its page shows (`ShownText`): a record with a body of
/// megabytes shows as the same record with only the first kilobytes of its body, on the
/// terminal at any width and on the web page, and costs as little.
@Suite struct ShownTextTests {
  /// Text of `size` bytes or more, ordinary in every way a body is: words and spaces, line
  /// breaks, accents and combining marks, CJK, emoji with skin tones and joiners, flags, a tab.
  static func body(_ size: Int) -> String {
    let pieces = [
      "Lunch at noon? ", "Réunion déplacée à 15 h. ", "e\u{301}te\u{301} ", "会議は10時に始まります。",
      "👍🏽 ", "👨‍👩‍👧‍👦 family ", "🇫🇷 ", "tab\there ", "new\nline ", "\u{2028}", "🙂\n",
    ]
    var text = ""
    var index = 0
    while text.utf8.count < size {
      text += pieces[index % pieces.count]
      index = (index * 7 + 3) % 1009
    }
    return text
  }

  static func record(body: String, id: String) -> String {
    var escaped = ByteBuffer()
    JSONEscapes.writeString(body, into: &escaped)
    return
      #"{"id":"\#(id)","app":"com.example.chat","title":"Alice","created_at":"2026-11-22T08:55:00Z","body":"#
      + escaped.text + "}\n"
  }

  /// The first `bytes` bytes of `text`, between two scalars.
  static func prefix(_ text: String, bytes: Int) -> String {
    var end = text.unicodeScalars.startIndex
    var count = 0
    for scalar in text.unicodeScalars {
      count += scalar.utf8.count
      if count > bytes { break }
      end = text.unicodeScalars.index(after: end)
    }
    return String(text.unicodeScalars[..<end])
  }

  @Test(arguments: [
    ["--width", "20"], ["--width", "80"], ["--width", "1000"], ["--width", "80", "--ascii"],
    ["--to", "html"],
  ])
  func aBodyOfMegabytesShowsAsItsFirstKilobytes(_ arguments: [String]) throws {
    let long = Self.body(3 << 20)
    let short = Self.prefix(long, bytes: 24 << 10)
    let whole = try show(Self.record(body: long, id: "a"), ["--now", now] + arguments)
    let start = try show(Self.record(body: short, id: "a"), ["--now", now] + arguments)
    #expect(whole.status == .success && whole.err.isEmpty)
    #expect(whole.out == start.out)
    #expect(whole.out.utf8.count < 64 << 10)
  }

  /// Cut for the terminal at `--width 80`, a body keeps the budget of two lines and one more,
  /// twice over (486 cells), and ends in the ellipsis; the web page keeps that of 1000 columns.
  @Test func aLongStringIsCutAfterItsBudget() throws {
    let text = String(repeating: "word ", count: 200_000)
    let terminal = ShownText(width: 80, ellipsis: "\u{2026}")
    #expect(terminal.budget(lines: 2) == 486)
    let cut = terminal.cut(text, isWhole: true, lines: 2)
    #expect(cut.count == 487 + 1 && cut.hasSuffix("wo\u{2026}"))
    #expect(
      ShownText(width: 1000, ellipsis: "...").cut(text, isWhole: true, lines: 1).count
        == 4005 + 3)
  }

  @Test(arguments: ["", "Hello", "👨‍👩‍👧‍👦", "a\nb\nc"])
  func aStringWithinItsBudgetIsKeptWhole(_ text: String) {
    #expect(ShownText(width: 20, ellipsis: "…").cut(text, isWhole: true, lines: 2) == text)
  }

  /// A line break in a body costs a line, 21 cells at 20 columns: the budget of two lines, 126
  /// cells, is past at the seventh. In a title, where each shows as `\n`, one costs a cell.
  @Test func aLineBreakInABodyCostsALine() {
    let text = String(repeating: "\n", count: 1000)
    let shown = ShownText(width: 20, ellipsis: "…")
    #expect(shown.cut(text, isWhole: true, lines: 2) == String(repeating: "\n", count: 7) + "…")
    #expect(shown.cut(text, isWhole: true, lines: 1).count == 85 + 1)
  }

  /// The start of a string, read from its first bytes only: its last cluster may be cut short,
  /// so it is never kept (the flag's second letter, here, is missing).
  @Test func theLastClusterOfAStartIsDropped() {
    let shown = ShownText(width: 20, ellipsis: "…")
    #expect(shown.cut("ab🇫", isWhole: false, lines: 1) == "ab…")
    #expect(shown.cut("", isWhole: false, lines: 1) == "…")
  }
}
