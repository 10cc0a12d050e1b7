import NotifCLI
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import notif_group

/// `--jobs`: a large file grouped in chunks by worker threads writes what one thread writes,
/// records and diagnostics alike, whatever the chunk size and wherever the trouble falls.
@Suite struct ChunkedGroupingTests {
  typealias Outcome = CapturedRun<NotifModel.ExitStatus>

  /// Runs notif-group on `input` (one file) with `arguments`, the chunk size and the memory
  /// for leading records given; `inFiles` is how many groups had theirs left in the file.
  static func run(
    _ input: String, _ arguments: [String], chunkSize: Int = GroupRun.defaultChunkSize,
    leadingMemory: Int = RecordFiles.defaultMemoryBudget, throughPipe: Bool = false
  )
    throws -> (Outcome, accepted: Int, fallBacks: Int, inFiles: Int)
  {
    func feed<R>(_ body: (String) throws -> R) throws -> R {
      throughPipe
        ? try withPipe(feeding: Array(input.utf8), body) : try withFile(input, body)
    }
    return try feed { path in
      let scanned = try OptionScanner.scan(arguments + [path], GroupCommand.options)
      let configuration = try GroupCommand.configure(scanned, environment: ToolEnvironment())
      var counts = (accepted: 0, fallBacks: 0)
      var inFiles = 0
      let (status, out, err) = try capturingOutput { stdout, stderr in
        var run = GroupRun(
          options: configuration.options,
          reporter: Reporter(program: GroupCommand.name, options: configuration.reporting),
          chunkSize: chunkSize,
          leadingMemory: leadingMemory)
        defer { counts = run.chunkCounts }
        run.group(configuration.files, stderr: &stderr)
        inFiles = run.leadingInFiles
        return run.write(stdout: &stdout, stderr: &stderr)
      }
      return (
        Outcome(status: status, stdout: out, stderr: err.replacing(path, with: "input")),
        counts.accepted, counts.fallBacks, inFiles
      )
    }
  }

  static let records = MergeTests.records(count: 300, seed: 5)
  static let clean = records.map { $0 + "\n" }.joined()

  /// Inputs that put every kind of trouble at chunk boundaries, for the chunk sizes used.
  static let inputs: [(String, String)] = [
    ("ndjson", clean),
    (
      "bad records and bad JSON among good ones",
      records.enumerated().map { index, line in
        switch index % 7 {
        case 1: return #"{"id":"cut","created_at":"2026-11-22T09:0"#  // cut short
        case 2: return "not json at all"
        case 3: return #"{"id":"x","created_at":"soon"}"#
        case 4: return line.replacing(#""summary_arg_count":1"#, with: #""summary_arg_count":0"#)
        case 5: return #"{"id":"d","id":"d","created_at":"2026-11-22T09:00:00Z"}"#
        default: return line
        }
      }.map { $0 + "\n" }.joined()
    ),
    (
      "pretty-printed records among lines", someRecordsSpreadOverLines(records)
    ),
    (
      // One group, whichever spelling its records use and whichever worker grouped them.
      "escaped spellings of one group in different chunks",
      records.enumerated().map { index, line in
        index % 3 == 0
          ? line.replacing(#""app":"com.example.chat""#, with: #""app":"com.ex\u0061mple.chat""#)
            .replacing(#""thread_id":"alice""#, with: #""thread_id":"\u0061lice""#) : line
      }.map { $0 + "\n" }.joined()
    ),
    ("crlf", records.map { $0 + "\r\n" }.joined()),
    ("byte order mark", "\u{FEFF}" + clean),
    ("no final newline", String(clean.dropLast())),
    (
      "a long line",
      records[..<40].map { $0 + "\n" }.joined()
        + record("long", thread: "t", category: String(repeating: "c", count: 5000)) + "\n"
        + records[40...].map { $0 + "\n" }.joined()
    ),
  ]

  static let optionSets: [[String]] = [
    [], ["--no-items"], ["--item-limit", "2", "--order", "chat"],
    ["--by", "app", "--sort", "relevance"],
    ["--by", "none", "--no-items"], ["--last-seen", "2026-11-22T09:02:00Z", "--format", "json"],
    ["--no-items", "--max-errors", "3"], ["--no-items", "--quiet", "--max-errors", "0"],
  ]

  @Test(arguments: inputs.map(\.0))
  func chunkedGroupingWritesWhatOneThreadWrites(_ name: String) throws {
    let input = try #require(Self.inputs.first { $0.0 == name }).1
    for options in Self.optionSets {
      let one = try Self.run(input, options + ["--jobs", "1"], chunkSize: 512)
      #expect(one.accepted == 0 && one.fallBacks == 0)
      for size in [64, 300, 1000, 4096, 20000] {
        let many = try Self.run(input, options + ["--jobs", "3"], chunkSize: size)
        #expect(many.0 == one.0, "\(options), chunks of \(size) bytes")
        #expect(many.accepted > 0 || many.fallBacks > 0, "\(options), chunks of \(size) bytes")
      }
    }
  }

  /// A pipe is read in chunks too, while their lines read alone; from the first chunk whose
  /// lines do not, one reader goes on, the workers' groups kept (a pipe cannot be read again).
  @Test(arguments: inputs.map(\.0))
  func aPipeIsGroupedInChunksAsAFileIs(_ name: String) throws {
    let input = try #require(Self.inputs.first { $0.0 == name }).1
    for options in [["--no-items"], ["--item-limit", "2", "--order", "chat"]] {
      let one = try Self.run(input, options + ["--jobs", "1"])
      for size in [300, 4096] {
        let many = try Self.run(
          input, options + ["--jobs", "3"], chunkSize: size, throughPipe: true)
        #expect(many.0 == one.0, "\(options), chunks of \(size) bytes")
        #expect(many.accepted > 0 || many.fallBacks > 0, "\(options), chunks of \(size) bytes")
        if name == "ndjson" { #expect(many.fallBacks == 0) }
      }
    }
  }

  /// `--max-errors` writes the first errors and warnings in input order, then how many more
  /// there were, the same whatever the chunks and threads; the output and the exit status are
  /// those of the run without it.
  @Test func maxErrorsKeepsTheFirstInInputOrderWhateverTheChunks() throws {
    let input = try #require(
      Self.inputs.first { $0.0 == "bad records and bad JSON among good ones" }
    ).1
    let all = try Self.run(input, ["--no-items", "--jobs", "1"]).0
    let lines = all.stderr.split(separator: "\n", omittingEmptySubsequences: true)
    let (errors, warnings) = (
      lines.filter { $0.contains(": error: ") }, lines.filter { $0.contains(": warning: ") }
    )
    #expect(errors.count > 2 && warnings.count > 2)
    var (keptErrors, keptWarnings) = (0, 0)
    var expected = lines.filter { line in
      if line.contains(": error: ") {
        keptErrors += 1
        return keptErrors <= 2
      }
      if line.contains(": warning: ") {
        keptWarnings += 1
        return keptWarnings <= 2
      }
      return true
    }.map { $0 + "\n" }.joined()
    expected +=
      "notif-group: input: note: \(errors.count - 2) more errors and \(warnings.count - 2) more "
      + "warnings were not shown (--max-errors 2) [NotShown]\n"
    let capped = ["--no-items", "--max-errors", "2"]
    let one = try Self.run(input, capped + ["--jobs", "1"]).0
    #expect(one == Outcome(status: all.status, stdout: all.stdout, stderr: expected))
    for size in [64, 300, 4096] {
      let many = try Self.run(input, capped + ["--jobs", "2"], chunkSize: size)
      #expect(many.0 == one, "chunks of \(size) bytes")
      #expect(many.accepted > 0 || many.fallBacks > 0, "chunks of \(size) bytes")
    }
  }

  /// A chunk that ends with a malformed line leaves one reader skipping to the next line that
  /// starts with `{` or `[`: the reader that goes on from a chunk whose lines do not read alone
  /// skips too (found by the group-chunks fuzz target).
  @Test func aPipeGoesOnSkippingAfterAChunkThatEndsWithAMalformedLine() throws {
    let first = Self.records[0] + "\n" + #"{"app":"":2}"# + "\n"
    // The line passed by goes on to more lines, or is the last, with no final newline.
    for rest in ["RRRR" + Self.records[1] + "\n" + Self.clean, "// the end"] {
      let input = first + rest
      let one = try Self.run(input, ["--jobs", "1"])
      #expect(one.0.stderr.components(separatedBy: "error").count == 2)
      let many = try Self.run(
        input, ["--jobs", "2"], chunkSize: first.utf8.count, throughPipe: true)
      #expect(many.0 == one.0)
      #expect(many.accepted == 1 && many.fallBacks == 1)
    }
  }

  /// A text left open at the end of a chunk's last line, which one reader finds cut short at
  /// the next line, leaves one reader to go on from that chunk (found by the group-chunks fuzz
  /// target).
  @Test func aPipeChunkWhoseLastTextIsLeftOpenGoesToOneReader() throws {
    let first = Self.records[0] + "\n" + #"{"app":"com.example.chat","payload":{"a":1}"# + "\n"
    let input = first + Self.clean
    let one = try Self.run(input, ["--jobs", "1"])
    #expect(one.0.stderr.contains("cut short"))
    let many = try Self.run(
      input, ["--jobs", "2"], chunkSize: first.utf8.count, throughPipe: true)
    #expect(many.0 == one.0)
    #expect(many.accepted == 0 && many.fallBacks == 1)
  }

  @Test func aPipeThatEndsWithinAChunkIsGroupedWithoutThreads() throws {
    let run = try Self.run(
      Self.clean, ["--jobs", "2"], chunkSize: Self.clean.utf8.count + 1, throughPipe: true)
    #expect(run.accepted == 0 && run.fallBacks == 0)
  }

  @Test func cleanNDJSONIsGroupedInChunksToTheEnd() throws {
    let input = Self.clean
    for size in [1000, 4096, 20000] {  // longer than every line
      let many = try Self.run(input, ["--jobs", "2", "--no-items"], chunkSize: size)
      #expect(many.fallBacks == 0, "chunks of \(size) bytes")
      #expect(many.accepted >= input.utf8.count / size, "chunks of \(size) bytes")
    }
  }

  @Test func filesReadInChunksAndWholeKeepTheirOrder() throws {
    // Three files: a big one in chunks, a small one whole, a big one in chunks again. Ties
    // across files keep the order of the files.
    let tied = (0..<200).map { record("t\($0)", thread: "t", at: "2026-11-22T09:00:00Z") }
    let big = tied[..<120].map { $0 + "\n" }.joined()
    let small = tied[120..<125].map { $0 + "\n" }.joined()
    let rest = tied[125...].map { $0 + "\n" }.joined()
    let whole = group(["--item-limit", "150"], inputs: [big + small + rest])
    let run = try Self.runFiles([big, small, rest], ["--item-limit", "150"], chunkSize: 700)
    #expect(run.accepted > 4)
    #expect(run.stdout == whole.stdout)
    #expect(run.stderr.isEmpty && whole.stderr.isEmpty)
  }

  /// Runs notif-group with `--jobs 2` on files holding `texts`, in order: its output, its
  /// diagnostics (each apart: a diagnostic must not pass for a group object) and the number
  /// of chunks the workers grouped.
  static func runFiles(_ texts: [String], _ arguments: [String], chunkSize: Int) throws
    -> (stdout: String, stderr: String, accepted: Int)
  {
    let paths = texts.map { temporaryFile(holding: $0) }
    let out = temporaryFile(holding: "")
    let err = temporaryFile(holding: "")
    defer { for path in paths + [out, err] { unlink(path) } }
    let scanned = try OptionScanner.scan(
      ["--jobs", "2"] + arguments + paths, GroupCommand.options)
    let configuration = try GroupCommand.configure(scanned, environment: ToolEnvironment())
    let outFD = open(out, O_WRONLY | O_TRUNC)
    let errFD = open(err, O_WRONLY | O_TRUNC)
    var stdout = OutputWriter(fd: outFD, name: "<stdout>")
    var stderr = OutputWriter(fd: errFD, name: "<stderr>")
    var run = GroupRun(options: configuration.options, chunkSize: chunkSize)
    #expect(run.execute(files: configuration.files, stdout: &stdout, stderr: &stderr) == .success)
    close(outFD)
    close(errFD)
    return (fileText(out), fileText(err), run.chunkCounts.accepted)
  }

  @Test func twoFilesInChunksWriteWhatOneThreadWrites() throws {
    // Each worker keeps its share of the groups of a file; the second file's shares are merged
    // with the first's. Many threads, so that every worker keeps some.
    var random = SplitMix(seed: 23)
    let many = (0..<400).map { n in
      record(
        "m\(n)", thread: "t\(random.pick(Array(0..<90)))",
        at: "2026-11-22T09:0\(random.pick([0, 1, 2])):00Z",
        category: random.pick(["MESSAGE", "PHOTO", nil]),
        summaryArg: random.pick(["Ann", "Bob", nil]))
    }
    let first = many[..<250].map { $0 + "\n" }.joined()
    let second = many[250...].map { $0 + "\n" }.joined()
    for options in [["--no-items"], ["--item-limit", "3"]] {
      let whole = group(options, inputs: [first + second])
      let run = try Self.runFiles([first, second], options, chunkSize: 900)
      #expect(run.accepted > 4)
      #expect(run.stdout == whole.stdout, "\(options)")
      #expect(run.stderr.isEmpty && whole.stderr.isEmpty, "\(options)")
    }
  }

  /// With `--jobs`, threads write the group objects and this one writes them out in order; a
  /// group whose object is larger than a piece (its items) is written by this thread, in
  /// pieces, in its place among the others.
  @Test func largeGroupObjectsKeepTheirPlaceAmongSmallOnes() throws {
    let input = (0..<600).map { n in
      let big = n % 2 == 0
      let second = n % 60
      return record(
        "r\(n)", thread: big ? "big\(n % 3)" : "small\(n)",
        at: "2026-11-22T09:\(n / 60 < 10 ? "0" : "")\(n / 60):\(second < 10 ? "0" : "")\(second)Z",
        title: big ? String(repeating: "x", count: 900) : "Message") + "\n"
    }.joined()
    let one = try Self.run(input, ["--jobs", "1"])
    let lengths = one.0.stdout.split(separator: "\n").map(\.utf8.count)
    #expect(lengths.count == 303)
    #expect(lengths.filter { $0 > Grouper.pieceSize }.count == 3)
    for size in [4096, 50000] {
      let many = try Self.run(input, ["--jobs", "2"], chunkSize: size)
      #expect(many.0 == one.0, "chunks of \(size) bytes")
      #expect(many.accepted > 0)
    }
  }

  @Test func aSmallFileIsGroupedWithoutThreads() throws {
    let run = try Self.run(Self.clean, ["--jobs", "2"], chunkSize: Self.clean.utf8.count)
    #expect(run.accepted == 0 && run.fallBacks == 0)
  }

  @Test func mergeReadsWithOneThread() throws {
    let groups = group(["--no-items", "--by", "none"], Self.records).stdout
    let run = try Self.run(groups, ["--merge", "--jobs", "2"], chunkSize: 100)
    #expect(run.accepted == 0 && run.fallBacks == 0)
    #expect(run.0.stdout == groups)
  }

  @Test(arguments: [["-j", "0"], ["--jobs", "65"], ["--jobs", "two"]])
  func badJobsIsAUsageError(_ arguments: [String]) {
    let result = group(arguments, [])
    #expect(result.status == .failure)
    #expect(result.stderr.hasPrefix("notif-group: --jobs: '"))
  }
}
