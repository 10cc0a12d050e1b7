import Foundation
import NotifCLI
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import notif_expire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Record `index` of a stream where collapse keys repeat far apart: 7 collapse ids over 2 apps
/// (every fifth record has none), 4 threads, and created_at minutes that often tie.
private func record(_ index: Int) -> String {
  let app = index % 3 == 0 ? "com.example.other" : "com.example.sports"
  let thread = "t\(index % 4)"
  let minute = (index * 37) % 50
  let created = "2026-11-22T08:\(minute < 10 ? "0" : "")\(minute):00Z"
  let collapse = index % 5 == 0 ? "null" : "\"c\(index % 7)\""
  return
    #"{"id":"r\#(index)","app":"\#(app)","thread_id":"\#(thread)","category":"score","#
    + #""title":"Alice","subtitle":null,"body":"Lunch?","title_loc_key":null,"#
    + #""title_loc_args":null,"subtitle_loc_key":null,"subtitle_loc_args":null,"loc_key":null,"#
    + #""loc_args":null,"created_at":"\#(created)","relevance":null,"interruption_level":null,"#
    + #""badge":1,"sound":"default","sound_critical":false,"sound_volume":null,"#
    + #""summary_arg":"Alice","summary_arg_count":1,"collapse_id":\#(collapse),"expires_at":null,"#
    + #""priority":null,"push_type":"alert","topic":null,"content_available":false,"#
    + #""mutable_content":false,"target_content_id":null,"event":null,"timestamp":null,"#
    + #""stale_at":null,"dismiss_at":null,"read_at":null,"seen_at":null,"#
    + #""payload":{"aps":{"alert":{"title":"Alice","body":"Lunch?"},"thread-id":"match","#
    + #""category":"score"}}}"#
}

/// A file of the test, removed when the value goes.
private final class ScratchFile {
  let path: String

  init(_ text: String) {
    var template = Array("/tmp/notif-expire-test-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    precondition(fd >= 0)
    let bytes = Array(text.utf8)
    precondition(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count)
    close(fd)
    path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
  }

  var text: String { fileText(path) }

  deinit {
    unlink(path)
  }
}

/// Runs notif-expire with a policy and `arguments`, in batches of `batchSize` bytes, with
/// `configure` applied to its configuration and environment; its status and stdout.
private func expire(
  policy: String, _ arguments: [String], batchSize: Int,
  configure: (inout ExpireCommand.Configuration, inout ToolEnvironment) -> Void = { _, _ in }
) -> (NotifModel.ExitStatus, String) {
  let (status, stdout, _) = expireWithDiagnostics(
    policy: policy, arguments, batchSize: batchSize, configure: configure)
  return (status, stdout)
}

/// `expire(policy:_:batchSize:configure:)`, with its standard error too; standard output goes
/// to `output` when given.
private func expireWithDiagnostics(
  policy: String, _ arguments: [String], batchSize: Int, output: ScratchFile = ScratchFile(""),
  configure: (inout ExpireCommand.Configuration, inout ToolEnvironment) -> Void = { _, _ in }
) -> (NotifModel.ExitStatus, String, String) {
  let policyFile = ScratchFile(policy)
  let out = output
  let err = ScratchFile("")
  var environment = ToolEnvironment(
    arguments: ["-p", policyFile.path, "--now", "2026-11-22T09:00:00Z"] + arguments,
    clock: { Timestamp(seconds: 42) })
  let outFD = open(out.path, O_WRONLY)
  let errFD = open(err.path, O_WRONLY)
  var stdout = OutputWriter(fd: outFD, name: "<stdout>")
  var stderr = OutputWriter(fd: errFD, name: "<stderr>")
  let status: NotifModel.ExitStatus
  do {
    let scanned = try OptionScanner.scan(environment.arguments, ExpireCommand.options)
    var configuration = try ExpireCommand.configure(scanned, environment: environment)
    configuration.batchSize = batchSize
    configure(&configuration, &environment)
    status = ExpireCommand.run(
      configuration, environment: environment, stdout: &stdout, stderr: &stderr)
  } catch {
    status = .failure
  }
  close(outFD)
  close(errFD)
  return (status, out.text, err.text)
}

/// A pipe that a thread fills with `text`: `pause(at:until:)` first writes the bytes up to
/// `at`, then waits (up to 30 s) until `until` holds before it writes the rest. Its path is
/// `/dev/fd/N` of the read end, which `finish()` closes. `sawCondition` is set by the writer
/// before it writes the rest and closes the pipe, so a reader that has seen the pipe's end
/// reads it after it was set.
private final class FilledPipe: @unchecked Sendable {
  let path: String
  private let readEnd: Int32
  /// Whether `until` held before the writer gave up waiting.
  private(set) var sawCondition = false

  init?(_ text: String, pauseAt: Int? = nil, until: @escaping @Sendable () -> Bool = { true }) {
    guard let pipe = makePipe() else { return nil }
    readEnd = pipe.read
    path = "/dev/fd/\(pipe.read)"
    let writeEnd = pipe.write
    let bytes = Array(text.utf8)
    let writer = Thread { [self] in
      func send(_ range: Range<Int>) {
        var done = range.lowerBound
        while done < range.upperBound {
          let count = bytes[done..<range.upperBound].withUnsafeBytes {
            write(writeEnd, $0.baseAddress, $0.count)
          }
          guard count > 0 else { return }
          done += count
        }
      }
      let cut = min(pauseAt ?? bytes.count, bytes.count)
      send(0..<cut)
      if pauseAt != nil {
        let deadline = Date().addingTimeInterval(30)
        while !until() && Date() < deadline { usleep(10_000) }
        sawCondition = until()
      }
      send(cut..<bytes.count)
      close(writeEnd)
    }
    writer.start()
  }

  /// Reads what the tool left in the pipe, so the writer never meets a closed pipe, and
  /// closes it.
  func finish() {
    var buffer = [UInt8](repeating: 0, count: 65536)
    while buffer.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
    close(readEnd)
  }
}

/// Runs notif-expire over `input` with a policy, batches of `batchSize` bytes; its stdout.
private func expire(
  _ input: String, policy: String, batchSize: Int,
  configure: (inout ExpireCommand.Configuration, inout ToolEnvironment) -> Void = { _, _ in }
) -> (NotifModel.ExitStatus, String) {
  let inputFile = ScratchFile(input)
  return expire(policy: policy, [inputFile.path], batchSize: batchSize, configure: configure)
}

/// The survey passes run on the workers batch by batch: the same records collapse and the same
/// caps hold whether a key's records share a batch or lie in many (a batch smaller than a line
/// holds one line).
@Suite struct BatchedSurveyTests {
  static let count = 600
  static let input = (0..<count).map { record($0) + "\n" }.joined()

  /// The records that stay when a 30-day default collapses: for each (app, collapse_id) the
  /// newest, on equal created_at the last read.
  static let collapsed: String = {
    var winners: [String: (minute: Int, index: Int)] = [:]
    for index in 0..<count where index % 5 != 0 {
      let key = "\(index % 3 == 0) \(index % 7)"
      let minute = (index * 37) % 50
      if let winner = winners[key], winner.minute > minute { continue }
      winners[key] = (minute, index)
    }
    let kept = Set(winners.values.map(\.index))
    return (0..<count).filter { $0 % 5 == 0 || kept.contains($0) }
      .map { record($0) + "\n" }.joined()
  }()

  @Test(arguments: [100, 3000, 20000, ExpireRun.batchSize])
  func collapseKeepsTheNewestAndOnTiesTheLastRead(_ batchSize: Int) {
    let (status, stdout) = expire(
      Self.input, policy: #"{"default": {"ttl": "30d"}}"#, batchSize: batchSize)
    #expect(status == .success)
    #expect(stdout == Self.collapsed)
  }

  /// A record whose `collapse_id` key is spelled with an escape (`"collapse\u005fid"`, the
  /// same key to JSON) collapses as one with the plain key: the survey's byte search took
  /// only the plain spelling, and such records were all kept.
  @Test(arguments: [100, ExpireRun.batchSize])
  func aCollapseKeySpelledWithAnEscapeCollapses(_ batchSize: Int) {
    func spelled(_ line: String, _ index: Int) -> String {
      index % 2 == 0
        ? line.replacingOccurrences(of: #""collapse_id":"#, with: #""collapse\u005fid":"#) : line
    }
    let lines = Self.input.split(separator: "\n").enumerated().map { spelled(String($1), $0) }
    let kept = Set(Self.collapsed.split(separator: "\n").map(String.init))
    let expected = lines.enumerated().filter { kept.contains(record($0.offset)) }
      .map { $0.element + "\n" }.joined()
    #expect(expected.count < Self.input.count / 2)
    let (status, stdout) = expire(
      lines.map { $0 + "\n" }.joined(), policy: #"{"default": {"ttl": "30d"}}"#,
      batchSize: batchSize)
    #expect(status == .success)
    #expect(stdout == expected)
  }

  /// The first pass's collapse marks spill from memory to a temporary file, and are read back
  /// in order; with no room for the file, a second pass over the input finds the same.
  @Test(arguments: [1, 7, 100])
  func collapseIsTheSameWhenTheLogSpillsOrFails(_ memoryLimit: Int) {
    let policy = #"{"default": {"ttl": "30d"}}"#
    let (spilled, spilledOut) = expire(Self.input, policy: policy, batchSize: 3000) {
      configuration, _ in configuration.collapseLogMemoryLimit = memoryLimit
    }
    #expect(spilled == .success)
    #expect(spilledOut == Self.collapsed)
    let (failed, failedOut) = expire(Self.input, policy: policy, batchSize: 3000) {
      configuration, environment in
      configuration.collapseLogMemoryLimit = memoryLimit
      environment.temporaryDirectory = "/nonexistent/notif-expire-test"
    }
    #expect(failed == .success)
    #expect(failedOut == Self.collapsed)
  }

  /// In place, kept lines are written from the batches as runs and the unchanged lines before
  /// the first removal are copied: the store and archive are those of stream mode.
  @Test(arguments: [100, 3000, 20000, ExpireRun.batchSize])
  func storeAndArchiveAreThoseOfStreamMode(_ batchSize: Int) {
    let policy = #"{"default": {"ttl": "30d"}}"#
    // Records that stay come first, so that the first removal falls inside a later batch.
    let input = String(repeating: record(5) + "\n", count: 40) + Self.input
    let streamArchive = ScratchFile("")
    let (streamStatus, kept) = expire(input, policy: policy, batchSize: batchSize)
    let inputFile = ScratchFile(input)
    let (archivedStatus, archivedKept) = expire(
      policy: policy, ["--archive", streamArchive.path, inputFile.path], batchSize: batchSize)
    let store = ScratchFile(input)
    let storeArchive = ScratchFile("")
    let (status, stdout) = expire(
      policy: policy, ["--store", store.path, "--archive", storeArchive.path],
      batchSize: batchSize)
    #expect(streamStatus == .success && archivedStatus == .success && status == .success)
    #expect(archivedKept == kept)
    #expect(stdout.isEmpty)
    #expect(store.text == kept)
    #expect(storeArchive.text == streamArchive.text)
    #expect(!streamArchive.text.isEmpty)
  }

  /// A pipe is read once: the first pass copies what it reads, and the passes after it read
  /// the copy. Collapse, caps and long lines come out as from a file, whatever the batch size,
  /// for a pipe alone and for a pipe between two files.
  @Test(arguments: [100, 3000, ExpireRun.batchSize])
  func aPipeIsSweptAsAFileIs(_ batchSize: Int) throws {
    let policy = #"{"default": {"ttl": "30d", "keep": 5}}"#
    let input = Self.input + String(repeating: "x", count: 5_000) + "\n" + record(3) + "\n"
    let file = ScratchFile(input)
    let limit: (inout ExpireCommand.Configuration, inout ToolEnvironment) -> Void = {
      configuration, _ in configuration.sweep.maxRecordBytes = 1_000
    }
    let (fileStatus, fromFile) = expire(
      policy: policy, [file.path, file.path, file.path], batchSize: batchSize, configure: limit)
    let pipe = try #require(FilledPipe(input))
    let (pipeStatus, fromPipe) = expire(
      policy: policy, [file.path, pipe.path, file.path], batchSize: batchSize,
      configure: limit)
    pipe.finish()
    #expect(fileStatus == .rejected && pipeStatus == .rejected)
    #expect(fromPipe == fromFile)
    #expect(fromFile.split(separator: "\n").count < 3 * input.split(separator: "\n").count)
  }

  /// From a pipe with no `keep` rule, the lines before the first that may have a
  /// `collapse_id` (or that is longer than `--max-record-bytes`) are swept as they come, and
  /// the rest waits for the end, in memory or past the bound in a temporary file: the bytes
  /// are those from a file whatever the batch size and the bound, with long lines and a last
  /// line without a line feed, for a pipe alone and before a file.
  @Test(arguments: [100, 3000, ExpireRun.batchSize], [1_000, PipeCopy.defaultMemoryLimit])
  func aPipeWithoutKeepIsSweptAsAFileIs(_ batchSize: Int, _ memoryLimit: Int) throws {
    let policy = #"{"default": {"ttl": "30d"}}"#
    let free = (0..<40).map { record($0 * 5) }
    let input =
      (free[..<20] + [String(repeating: "x", count: 5_000)] + free[20...]).map { $0 + "\n" }
      .joined() + Self.input + String(repeating: "y", count: 1_500)
    let file = ScratchFile(input)
    let configure: (inout ExpireCommand.Configuration, inout ToolEnvironment) -> Void = {
      configuration, _ in
      configuration.sweep.maxRecordBytes = 1_000
      configuration.pipeMemoryLimit = memoryLimit
    }
    let (fileStatus, fromFile) = expire(
      policy: policy, [file.path], batchSize: batchSize, configure: configure)
    let (twiceStatus, twice) = expire(
      policy: policy, [file.path, file.path], batchSize: batchSize, configure: configure)
    let alone = try #require(FilledPipe(input))
    let (aloneStatus, fromPipe, note) = expireWithDiagnostics(
      policy: policy, ["--verbose", alone.path], batchSize: batchSize, configure: configure)
    alone.finish()
    let before = try #require(FilledPipe(input))
    let (beforeStatus, fromBoth) = expire(
      policy: policy, [before.path, file.path], batchSize: batchSize, configure: configure)
    before.finish()
    #expect(fileStatus == .rejected && aloneStatus == .rejected)
    #expect(twiceStatus == .rejected && beforeStatus == .rejected)
    #expect(fromPipe == fromFile)
    #expect(fromBoth == twice)
    #expect(fromFile.count < input.count)
    let place = memoryLimit < input.utf8.count ? "bytes in a temporary file" : "bytes in memory"
    #expect(note.contains("\(alone.path): wrote lines 1-"))
    #expect(note.contains("waited for the end"))
    #expect(note.contains(place))
  }

  /// A pipe that fits in memory needs no temporary file: with none to be made, it is swept as
  /// a file is; past the bound, the run stops with an error that names the file it could not
  /// make.
  @Test func aPipeThatFitsInMemoryNeedsNoTemporaryFile() throws {
    let policy = #"{"default": {"ttl": "30d", "keep": 5}}"#
    let (_, fromFile) = expire(Self.input, policy: policy, batchSize: 3000)
    let nowhere = "/nonexistent/notif-expire-test"
    let fits = try #require(FilledPipe(Self.input))
    let (status, stdout, note) = expireWithDiagnostics(
      policy: policy, ["--verbose", fits.path], batchSize: 3000
    ) { _, environment in environment.temporaryDirectory = nowhere }
    fits.finish()
    #expect(status == .success)
    #expect(stdout == fromFile)
    #expect(note.contains("\(Self.input.utf8.count) bytes in memory"))
    let over = try #require(FilledPipe(Self.input))
    let (overStatus, _, diagnostics) = expireWithDiagnostics(
      policy: policy, [over.path], batchSize: 3000
    ) { configuration, environment in
      configuration.pipeMemoryLimit = 10_000
      environment.temporaryDirectory = nowhere
    }
    over.finish()
    #expect(overStatus == .failure)
    #expect(diagnostics.hasPrefix("notif-expire: \(nowhere)/notif-expire."))
    #expect(
      diagnostics.hasSuffix(
        ": error: cannot create a temporary file: no such file or directory [Failed]\n"))
  }

  /// The lines before the first that may have a `collapse_id` are written before the rest of
  /// the pipe has come: the writer waits for them in the output before it writes the rest.
  @Test func linesBeforeTheFirstCollapseIDAreWrittenAsTheyCome() throws {
    let policy = #"{"default": {"ttl": "30d"}}"#
    let free = (0..<200).map { record($0 * 5) + "\n" }.joined()
    let (_, freeKept) = expire(free, policy: policy, batchSize: ExpireRun.batchSize)
    #expect(freeKept == free)
    let output = ScratchFile("")
    let outputPath = output.path
    // Self.input starts with a record without a collapse_id; its second has one.
    let wanted = free.utf8.count + record(0).utf8.count + 1
    let pipe = try #require(
      FilledPipe(free + Self.input, pauseAt: wanted + record(1).utf8.count + 1) {
        var status = stat()
        return stat(outputPath, &status) == 0 && Int(status.st_size) >= wanted
      })
    let (status, stdout, note) = expireWithDiagnostics(
      policy: policy, ["--verbose", pipe.path], batchSize: ExpireRun.batchSize, output: output)
    pipe.finish()
    let (_, fromFile) = expire(free + Self.input, policy: policy, batchSize: ExpireRun.batchSize)
    #expect(status == .success)
    #expect(pipe.sawCondition)
    #expect(stdout == fromFile)
    #expect(
      note.hasPrefix(
        "notif-expire: \(pipe.path): wrote lines 1-201 as they came; lines 202-800 waited for"
          + " the end (line 202 may have a collapse_id), "))
    #expect(note.contains(" bytes in memory\n"))
  }

  /// With a `keep` rule every record waits for the end, and `--verbose` says why; a pipe of
  /// records without a `collapse_id` is written as it comes, all of it.
  @Test func theVerboseLineSaysWhatWaitedAndWhy() throws {
    let free = (0..<50).map { record($0 * 5) + "\n" }.joined()
    let capped = try #require(FilledPipe(free))
    let (_, _, cappedNote) = expireWithDiagnostics(
      policy: #"{"default": {"ttl": "30d", "keep": 5}}"#, ["--verbose", capped.path],
      batchSize: 3000)
    capped.finish()
    #expect(
      cappedNote.hasPrefix(
        "notif-expire: \(capped.path): lines 1-50 waited for the end (a keep rule weighs every"
          + " record), \(free.utf8.count) bytes in memory\n"))
    let streamed = try #require(FilledPipe(free))
    let (_, kept, streamedNote) = expireWithDiagnostics(
      policy: #"{"default": {"ttl": "30d"}}"#, ["--verbose", streamed.path], batchSize: 3000)
    streamed.finish()
    #expect(kept == free)
    #expect(
      streamedNote.hasPrefix(
        "notif-expire: \(streamed.path): wrote its 50 lines as they came: none has a collapse_id\n"
      ))
  }

  @Test(arguments: [100, 3000, 20000])
  func capsAreTheSameInSmallBatches(_ batchSize: Int) {
    let policy = #"{"default": {"ttl": "30d", "keep": 5}}"#
    let (wholeStatus, whole) = expire(Self.input, policy: policy, batchSize: ExpireRun.batchSize)
    let (status, stdout) = expire(Self.input, policy: policy, batchSize: batchSize)
    let (_, uncapped) = expire(
      Self.input, policy: #"{"default": {"ttl": "30d"}}"#, batchSize: batchSize)
    #expect(wholeStatus == .success && status == .success)
    #expect(stdout == whole)
    // The caps removed records.
    #expect(stdout.split(separator: "\n").count < uncapped.split(separator: "\n").count)
  }

  /// Lines longer than `--max-record-bytes`, however many batches they span (one, part of one,
  /// many), are no records: each is reported and kept in its place byte for byte, in a filter
  /// and in a store alike, while collapse and caps decide the records around them exactly as
  /// without them; with `--quarantine`, each goes there in base64 and the store loses only it.
  @Test(arguments: [100, 3000, 20000, ExpireRun.batchSize])
  func longLinesAreKeptInTheirPlaceWhateverTheBatchSize(_ batchSize: Int) throws {
    let policy = #"{"default": {"ttl": "30d", "keep": 5}}"#
    let long = (0..<4).map { n in
      String(
        repeating: Character(UnicodeScalar(UInt8(97 + n))), count: [1_001, 2_500, 45_000, 7_777][n])
    }
    var lines = (0..<Self.count).map { record($0) }
    for (n, line) in long.enumerated() { lines.insert(line, at: [0, 150, 151, 400][n] + n) }
    let input = lines.joined(separator: "\n") + "\n" + String(repeating: "z", count: 9_000)
    let (plainStatus, plain) = expire(Self.input, policy: policy, batchSize: batchSize)
    let (status, stdout) = expire(input, policy: policy, batchSize: batchSize) { configuration, _ in
      configuration.sweep.maxRecordBytes = 1_000
    }
    #expect(plainStatus == .success && status == .rejected)
    let isLong: (Substring) -> Bool = { $0.count > 1_000 }
    let kept = stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(kept.filter { !isLong($0) }.joined(separator: "\n") + "\n" == plain)
    #expect(
      kept.filter(isLong) == long.map { Substring($0) } + [
        Substring(String(repeating: "z", count: 9_000))
      ])
    #expect(kept.first == Substring(long[0]))
    #expect(kept.last == Substring(String(repeating: "z", count: 9_000)))

    let store = ScratchFile(input)
    let quarantine = ScratchFile("")
    let (storeStatus, _) = expire(
      policy: policy, ["--store", store.path, "--quarantine", quarantine.path], batchSize: batchSize
    ) { configuration, _ in configuration.sweep.maxRecordBytes = 1_000 }
    #expect(storeStatus == .success)
    #expect(store.text == plain)
    let entries = quarantine.text.split(separator: "\n")
    #expect(entries.count == 5)
    for (entry, line) in zip(entries, long + [String(repeating: "z", count: 9_000)]) {
      #expect(entry.contains(#""code":"RecordTooLarge""#))
      let base64 = entry.split(separator: #""base64":""#).last?.dropLast(2) ?? ""
      #expect(
        Data(base64Encoded: String(base64)).map { String(decoding: $0, as: UTF8.self) } == line)
    }
  }
}
