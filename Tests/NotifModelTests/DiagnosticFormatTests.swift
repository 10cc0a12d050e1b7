import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import NotifModel

private let located = Diagnostic(
  .error, "PayloadTooLarge", "the payload is 5000 bytes", file: "a.ndjson", line: 3, column: 7)

@Suite struct DiagnosticFormatTests {
  @Test(arguments: [
    (located, "notif-parse: a.ndjson:3:7: error: the payload is 5000 bytes [PayloadTooLarge]\n"),
    (
      Diagnostic(.warning, "NoAps", "no 'aps'", file: "<stdin>", line: 12),
      "notif-parse: <stdin>:12: warning: no 'aps' [NoAps]\n"
    ),
    (
      Diagnostic(.error, "Unreadable", "cannot open: no such file or directory", file: "x.json"),
      "notif-parse: x.json: error: cannot open: no such file or directory [Unreadable]\n"
    ),
    (Diagnostic(.error, "X", "m", file: "f", column: 4), "notif-parse: f: error: m [X]\n"),
  ])
  func rendersText(_ diagnostic: Diagnostic, _ line: String) {
    #expect(DiagnosticFormat.text.render(diagnostic, program: "notif-parse") == line)
  }

  @Test(arguments: [
    (
      located,
      "::error file=a.ndjson,line=3,col=7,title=PayloadTooLarge::the payload is 5000 bytes\n"
    ),
    (
      Diagnostic(.warning, "NoAps", "no 'aps'", file: "<stdin>", line: 12),
      "::warning file=<stdin>,line=12,title=NoAps::no 'aps'\n"
    ),
    (
      Diagnostic(.error, "Unreadable", "cannot open", file: "x.json"),
      "::error file=x.json,title=Unreadable::cannot open\n"
    ),
    (
      Diagnostic(
        .error, "X", "100% sure\r\nnext line: a, b", file: "dir:a,b%.json", line: 1, column: 2),
      "::error file=dir%3Aa%2Cb%25.json,line=1,col=2,title=X::100%25 sure%0D%0Anext line: a, b\n"
    ),
  ])
  func rendersGitHubWorkflowCommandsEscaped(_ diagnostic: Diagnostic, _ line: String) {
    #expect(DiagnosticFormat.github.render(diagnostic, program: "notif-parse") == line)
  }

  @Test func rendersOneJSONObjectPerDiagnostic() {
    #expect(
      DiagnosticFormat.json.render(located, program: "notif-parse")
        == #"{"file":"a.ndjson","line":3,"column":7,"severity":"error","code":"PayloadTooLarge","message":"the payload is 5000 bytes"}"#
        + "\n")
    let unlocated = Diagnostic(.warning, "W", "m", file: "f")
    #expect(
      DiagnosticFormat.json.render(unlocated, program: "notif-parse")
        == #"{"file":"f","line":null,"column":null,"severity":"warning","code":"W","message":"m"}"#
        + "\n")
  }

  @Test func jsonDiagnosticsParseBackToTheSameValues() throws {
    let tricky = Diagnostic(
      .error, "Bad\"Code", "quote \" backslash \\ newline \n tab \t nul \u{0} é 😀",
      file: "dir/\"odd\".json",
      line: 1, column: 2)
    let line = DiagnosticFormat.json.render(tricky, program: "notif-parse")
    #expect(line.hasSuffix("}\n"))
    let fields = try #require(
      withView(of: String(line.dropLast())) { view -> [String: String] in
        var fields: [String: String] = [:]
        view.forEachMember(of: 0) { key, value in
          var out = ByteBuffer()
          JSONWriter.writeCompact(view, value, into: &out)
          fields[view.string(key)] = view.stringValue(value) ?? out.text
        }
        return fields
      })
    #expect(
      fields == [
        "file": tricky.file, "line": "1", "column": "2", "severity": "error", "code": tricky.code,
        "message": tricky.message,
      ])
  }

  @Test func formatsAreNamedAsOnTheCommandLine() {
    #expect(DiagnosticFormat.allCases.map(\.rawValue) == ["text", "github", "json", "sarif"])
    #expect(DiagnosticFormat(rawValue: "SARIF") == nil)
  }

  /// A diagnostic alone in SARIF is its `result` object, on a line; a log numbers the rules.
  @Test func aSarifResultNamesItsRuleAndPlace() throws {
    let diagnostic = Diagnostic(
      .warning, "BadBadge", "'badge' is 'x'", file: "dir/a b.json", line: 3, column: 7,
      rule: "apns-badge")
    let line = DiagnosticFormat.sarif.render(diagnostic, program: "notif-parse")
    #expect(
      line
        == #"{"ruleId":"apns-badge","level":"warning","message":{"text":"'badge' is 'x'"},"#
        + #""locations":[{"physicalLocation":{"artifactLocation":{"uri":"dir/a%20b.json"},"#
        + #""region":{"startLine":3,"startColumn":7}}}],"properties":{"code":"BadBadge"}}"#
        + "\n")
    var log = SarifLog(tool: "notif-parse", version: "1.2.3")
    log.add(diagnostic)
    log.add(Diagnostic(.error, "Unreadable", "no such file", file: "/tmp/x"))
    log.add(diagnostic)
    let document = log.document()
    #expect(log.count == 3)
    #expect(document.contains(#""ruleId":"Unreadable","ruleIndex":1,"#))
    #expect(document.contains(#""uri":"file:///tmp/x"}}}]}"#), "no region without a line")
    #expect(document.components(separatedBy: #"{"id":"apns-badge""#).count == 2)
    #expect(document.hasSuffix("]}]}\n"))
  }

  @Test func sarifURIsEscapeWhatAURICannotHold() {
    #expect(SarifLog.uri("<stdin>") == "%3Cstdin%3E")
    #expect(SarifLog.uri("a/b-c_d.e~f") == "a/b-c_d.e~f")
    #expect(SarifLog.uri("/x y/é:%") == "file:///x%20y/%C3%A9%3A%25")
  }

  /// Every code of notif-diagnostics(7) has words for SARIF's rule descriptor; its summary is
  /// its first sentence.
  @Test func everyCodeHasItsWords() throws {
    let code = try #require(DiagnosticCode.named("Locked"))
    #expect(code.summary.hasPrefix("Another sweep or appender holds the store's lock"))
    #expect(DiagnosticCode.named("NoSuchCode") == nil)
    let created = try #require(DiagnosticCode.named("BadCreatedAt"))
    #expect(created.summary == "created_at is missing or not an RFC 3339 time.")
  }

  @Test func warningsRankBelowErrors() {
    #expect(Severity.warning < .error)
    #expect(!(Severity.error < .warning))
    #expect([Severity.warning, .error, .warning].max() == .error)
    #expect(Severity.note < .warning && Severity.note < .error)
  }

  /// A note reports nothing wrong: `note` in text and JSON, a `notice` annotation on GitHub.
  @Test func aNoteIsANoticeOnGitHub() {
    let note = Diagnostic(.note, "NotListed", "1 record not listed: 1 background", file: "in")
    #expect(
      DiagnosticFormat.text.render(note, program: "notif-group")
        == "notif-group: in: note: 1 record not listed: 1 background [NotListed]\n")
    #expect(
      DiagnosticFormat.github.render(note, program: "notif-group")
        == "::notice file=in,title=NotListed::1 record not listed: 1 background\n")
    #expect(
      DiagnosticFormat.json.render(note, program: "notif-group")
        == #"{"file":"in","line":null,"column":null,"severity":"note","code":"NotListed","#
        + #""message":"1 record not listed: 1 background"}"# + "\n")
  }

  @Test(arguments: [
    ("plain 'value'", "plain 'value'"),
    ("two\nlines", "two\\nlines"),
    ("\r\t", "\\r\\t"),
    ("\u{1B}[2J clear", "\\e[2J clear"),
    ("\u{1B}]52;c;aGk=\u{07}", "\\e]52;c;aGk=\\u{7}"),
    ("c1 \u{9B}31m", "c1 \\u{9B}31m"),
    ("del \u{7F}", "del \\u{7F}"),
    ("bidi \u{202E}txt.exe", "bidi \\u{202E}txt.exe"),
    ("isolate \u{2066}x\u{2069}", "isolate \\u{2066}x\\u{2069}"),
    ("separator \u{2028}", "separator \\u{2028}"),
    ("é 😀 \\ kept", "é 😀 \\ kept"),
  ])
  func userTextIsWrittenVisibly(_ text: String, _ expected: String) {
    #expect(Diagnostic.visible(text) == expected)
  }

  @Test func everyFormatKeepsADiagnosticOnOneLine() {
    let hostile = Diagnostic(
      .warning, "UnknownKey", "unknown envelope key 'a\nb\u{1B}[2J'", file: "in\nput", line: 3,
      column: 4)
    for format in DiagnosticFormat.allCases {
      let line = format.render(hostile, program: "notif-parse")
      #expect(line.filter { $0 == "\n" }.count == 1, "\(format): \(line)")
      #expect(!line.unicodeScalars.contains("\u{1B}"), "\(format): \(line)")
      #expect(line.hasSuffix("\n"))
    }
    #expect(
      DiagnosticFormat.text.render(hostile, program: "notif-parse")
        == "notif-parse: in\\nput:3:4: warning: unknown envelope key 'a\\nb\\e[2J' [UnknownKey]\n")
  }
}
