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
    #expect(DiagnosticFormat.allCases.map(\.rawValue) == ["text", "github", "json"])
    #expect(DiagnosticFormat(rawValue: "sarif") == nil)
  }

  @Test func warningsRankBelowErrors() {
    #expect(Severity.warning < .error)
    #expect(!(Severity.error < .warning))
    #expect([Severity.warning, .error, .warning].max() == .error)
  }
}
