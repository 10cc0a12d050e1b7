import NotifCLI
import NotifJSON
import NotifModel
import Testing

@testable import notif_group

/// Records and options that are refused, with the exact messages.
@Suite struct RejectionTests {
  @Test(arguments: [
    ("[1,2]", "input1:1:1: error: the JSON text is not an object [NotAnObject]"),
    (#"{"id":"x","app":"a"}"#, "input1:1:1: error: the record has no 'created_at' [BadCreatedAt]"),
    (
      #"{"id":"x","created_at":null}"#,
      "input1:1:24: error: 'created_at' is null, not an RFC 3339 time [BadCreatedAt]"
    ),
    (
      #"{"id":"x","created_at":"2026-02-30T09:00:00Z"}"#,
      "input1:1:24: error: 'created_at' is not an RFC 3339 time: '2026-02-30T09:00:00Z' [BadCreatedAt]"
    ),
    (
      #"{"id":"x","created_at":"0000-01-01T00:30:00+01:00"}"#,
      "input1:1:24: error: 'created_at': '0000-01-01T00:30:00+01:00' is before the earliest supported time, 0001-01-01T00:00:00Z [BadCreatedAt]"
    ),
    (
      #"{"id":"x","created_at":"9999-12-31T23:59:59-01:00"}"#,
      "input1:1:24: error: 'created_at': '9999-12-31T23:59:59-01:00' is after the latest supported time, 9999-12-31T23:59:59.999999999Z [BadCreatedAt]"
    ),
    (
      #"{"id":"x","created_at":1795338000}"#,
      "input1:1:24: error: 'created_at' is a number, not an RFC 3339 time [BadCreatedAt]"
    ),
    (
      #"{"app":7,"created_at":"2026-11-22T09:00:00Z"}"#,
      "input1:1:8: error: 'app' is a number, not a string or null [BadType]"
    ),
    (
      #"{"thread_id":[],"created_at":"2026-11-22T09:00:00Z"}"#,
      "input1:1:14: error: 'thread_id' is an array, not a string or null [BadType]"
    ),
    (
      #"{"created_at":"2026-11-22T09:00:00Z","relevance":"high"}"#,
      "input1:1:50: error: 'relevance' is a string, not a number [BadType]"
    ),
    (
      #"{"created_at":"2026-11-22T09:00:00Z","category":1}"#,
      "input1:1:49: error: 'category' is a number, not a string or null [BadType]"
    ),
    (
      #"{"created_at":"#,
      "input1:1:15: error: JSON text is cut short: a new one starts on line 3 [InvalidJSON]"
    ),
  ])
  func badRecordIsReportedAndSkipped(_ bad: String, _ message: String) {
    let result = group([record("good", thread: "t"), bad, record("after", thread: "t")])
    #expect(result.status == .rejected)
    #expect(
      result.stderr == "notif-group: " + message.replacing("input1:1:", with: "input1:2:") + "\n")
    #expect(value("count", in: result.lines[0]) == "2")
  }

  @Test(arguments: [
    (["--by", "user"], "--by: 'user' is not thread, app or none"),
    (["--order", "newest"], "--order: 'newest' is not feed or chat"),
    (["--sort", "date"], "--sort: 'date' is not time or relevance"),
    (["--item-limit", "0"], "--item-limit: '0' is not a whole number from 1 to 9007199254740991"),
    (
      ["--item-limit", "-3"], "--item-limit: '-3' is not a whole number from 1 to 9007199254740991"
    ),
    (["--item-limit", "2", "--no-items"], "--item-limit and --no-items cannot be used together"),
    (
      ["--last-seen", "yesterday"],
      "--last-seen: 'yesterday' is not an RFC 3339 time such as 2026-11-22T09:05:00Z"
    ),
    (
      ["--last-seen", "0000-01-01T00:00:00+01:00"],
      "--last-seen: '0000-01-01T00:00:00+01:00' is before the earliest supported time, 0001-01-01T00:00:00Z"
    ),
    (
      ["--last-seen", "@99999999999999999999"],
      "--last-seen: '@99999999999999999999' is after the latest supported time, 9999-12-31T23:59:59.999999999Z"
    ),
    (
      ["--merge", "--last-seen", "@0"],
      "--last-seen cannot be used with --merge: group objects carry their new_count"
    ),
    (["--bogus"], "unknown option '--bogus'"),
  ])
  func usageErrorsExitTwoWithTheUsageLine(_ arguments: [String], _ message: String) {
    let result = group(arguments, inputs: [])
    #expect(result.status == .failure)
    #expect(result.stderr == "notif-group: \(message)\n" + GroupCommand.usage)
    #expect(result.stdout.isEmpty)
  }

  @Test func unreadableFileIsReportedAndTheOthersRead() {
    let result = group(["/nonexistent/records.ndjson"], inputs: [record("a") + "\n"])
    #expect(result.status == .failure)
    #expect(
      result.stderr
        == "notif-group: /nonexistent/records.ndjson: error: cannot open: no such file or directory [Unreadable]\n"
    )
    #expect(result.lines.count == 1)
  }
}

/// A failed write stops the run with status 2 and says why.
@Suite struct OutputFailureTests {
  @Test func fullDiskIsAnErrorWithStatus2() throws {
    let full = open("/dev/full", O_WRONLY)
    try #require(full >= 0)
    defer { close(full) }
    var template = Array("/tmp/notif-group-err-XXXXXX".utf8CString)
    let errFD = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    let errPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    defer { unlink(errPath) }
    let status = withFile(record("a", thread: "t") + "\n") { path in
      var stdout = OutputWriter(fd: full, name: "<stdout>")
      var stderr = OutputWriter(fd: errFD, name: "<stderr>")
      return GroupCommand.run(
        environment: ToolEnvironment(arguments: [path]), stdout: &stdout, stderr: &stderr)
    }
    close(errFD)
    #expect(status == .failure)
    let fd = open(errPath, O_RDONLY)
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: 4096)
    let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
    #expect(
      String(decoding: bytes[0..<max(count, 0)], as: UTF8.self)
        == "notif-group: <stdout>: error: write error: no space left on device [WriteFailed]\n")
  }
}
