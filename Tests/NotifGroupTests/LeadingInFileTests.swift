import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import notif_group

/// Leading records past the memory budget stay in their files (`RecordStore`, `RecordFiles`)
/// and are read back when their group objects are written: the objects are those of a run that
/// kept every record in memory, byte for byte, whatever the input's trouble, the options and
/// the threads; and a file that changes before they are written stops the run with an error,
/// never another record in a group object.
@Suite struct LeadingInFileTests {
  typealias Outcome = CapturedRun<NotifModel.ExitStatus>

  static let optionSets: [[String]] = [
    ["--no-items"], ["--item-limit", "2", "--order", "chat"],
    ["--by", "app", "--sort", "relevance"],
    ["--by", "none", "--no-items"],
  ]

  @Test(arguments: ChunkedGroupingTests.inputs.map(\.0))
  func recordsLeftInTheirFileWriteWhatRecordsInMemoryWrite(_ name: String) throws {
    let input = try #require(ChunkedGroupingTests.inputs.first { $0.0 == name }).1
    for options in Self.optionSets {
      let kept = try ChunkedGroupingTests.run(input, options + ["--jobs", "1"])
      #expect(kept.inFiles == 0)
      for (jobs, size) in [("1", GroupRun.defaultChunkSize), ("3", 300), ("2", 4096)] {
        let left = try ChunkedGroupingTests.run(
          input, options + ["--jobs", jobs], chunkSize: size, leadingMemory: 0)
        #expect(left.0 == kept.0, "\(options), --jobs \(jobs), chunks of \(size) bytes")
        // Every input has compact records on lines of their own: those stay in the file.
        #expect(left.inFiles > 0, "\(options), --jobs \(jobs), chunks of \(size) bytes")
      }
    }
  }

  /// A record that is not compact as read (white space, escapes written otherwise) is kept in
  /// memory, compact, whatever the budget: the bytes in the file are not what is written.
  @Test func recordsThatAreNotCompactStayInMemory() throws {
    let spaced = ChunkedGroupingTests.records.map {
      $0.replacing(#""app":"#, with: #""app": "#) + "\n"
    }.joined()
    let kept = try ChunkedGroupingTests.run(spaced, ["--no-items"])
    let left = try ChunkedGroupingTests.run(spaced, ["--no-items"], leadingMemory: 0)
    #expect(left.0 == kept.0)
    #expect(left.inFiles == 0)
  }

  /// A pipe cannot be read again, and group objects being merged are not records: their
  /// leading records stay in memory.
  @Test func pipesAndMergedObjectsKeepTheirRecordsInMemory() throws {
    let piped = try ChunkedGroupingTests.run(
      ChunkedGroupingTests.clean, ["--jobs", "2"], chunkSize: 300, leadingMemory: 0,
      throughPipe: true)
    let kept = try ChunkedGroupingTests.run(ChunkedGroupingTests.clean, ["--jobs", "2"])
    #expect(piped.0 == kept.0)
    #expect(piped.inFiles == 0)
    let objects = kept.0.stdout
    let merged = try ChunkedGroupingTests.run(objects, ["--merge"], leadingMemory: 0)
    #expect(merged.0.status == .success)
    #expect(merged.inFiles == 0)
  }

  /// The budget is the run's: with `--jobs`, each worker keeps its share, and the records past
  /// it stay in the file. How many stay there with two workers depends on the order in which
  /// each receives the records of its groups that the other read (a leader replaced early or
  /// late frees its room at another time), so it is bounded, not compared with one worker's:
  /// a run in CI had 6 against 7.
  @Test func theBudgetIsSharedByTheWorkers() throws {
    let input = ChunkedGroupingTests.clean
    let groups = try ChunkedGroupingTests.run(input, ["--no-items"]).0.stdout.count { $0 == "\n" }
    let budget = 2048  // about ten records
    let one = try ChunkedGroupingTests.run(input, ["--no-items"], leadingMemory: budget)
    #expect(one.inFiles > 0 && one.inFiles < groups)
    for _ in 0..<5 {
      let two = try ChunkedGroupingTests.run(
        input, ["--no-items", "--jobs", "2"], chunkSize: 1000, leadingMemory: budget)
      #expect(two.inFiles > 0 && two.inFiles < groups)
      #expect(two.0 == one.0)
    }
  }

  /// Groups a file holding `text` with nothing kept in memory, rewrites the
  /// file in place with `changed` (nil: leaves it), then writes the group objects.
  static func groupThenChange(_ text: String, to changed: String?, jobs: Int) throws
    -> (Outcome, inFiles: Int)
  {
    try withFile(text) { path in
      var inFiles = 0
      var options = GroupOptions()
      options.jobs = jobs  // with 2, two threads write the group objects
      let (status, out, err) = try capturingOutput { stdout, stderr in
        var run = GroupRun(options: options, leadingMemory: 0)
        run.group([path], stderr: &stderr)
        inFiles = run.leadingInFiles
        if let changed {
          // In place: the run's descriptor sees the new bytes (a new file would not change).
          let fd = open(path, O_WRONLY | O_TRUNC)
          var writer = OutputWriter(fd: fd, name: path)
          #expect((try? writer.write(changed)) != nil && (try? writer.flush()) != nil)
          close(fd)
        }
        return run.write(stdout: &stdout, stderr: &stderr)
      }
      let outcome = Outcome(status: status, stdout: out, stderr: err.replacing(path, with: "input"))
      return (outcome, inFiles)
    }
  }

  @Test(arguments: [1, 2])
  func aFileChangedBeforeTheGroupsAreWrittenIsAnError(jobs: Int) throws {
    let records = (0..<6).map { n in
      record("r\(n)", thread: "t\(n)", at: "2026-11-22T09:0\(n):00Z") + "\n"
    }
    let text = records.joined()
    // Another record in the place of the third (the same length): its id differs.
    let replaced = text.replacing(#""id":"r2""#, with: #""id":"x2""#)
    for changed in [replaced, String(text.prefix(text.utf8.count / 2)), ""] {
      let (outcome, inFiles) = try Self.groupThenChange(text, to: changed, jobs: jobs)
      #expect(inFiles == 6)
      #expect(outcome.status == .failure)
      #expect(outcome.stderr.contains("input: error: changed while notif-group read it"))
      #expect(outcome.stderr.contains("[Unreadable]"))
      // The newest groups come first: those whose records read back are written, whole.
      let lines = outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(lines.last == "")
      for line in lines.dropLast() { #expect(isJSON(String(line))) }
      if changed == replaced {
        #expect(lines.count - 1 == 3)  // r5, r4, r3; then r2 no longer reads back
      }
    }
    let (unchanged, _) = try Self.groupThenChange(text, to: nil, jobs: jobs)
    #expect(unchanged.status == .success)
    #expect(unchanged.stdout.count { $0 == "\n" } == 6)
  }

  func isJSON(_ text: String) -> Bool {
    var parser = JSONParser()
    return Array(text.utf8).withUnsafeBytes {
      parser.parse($0, isFinal: true) == .complete(end: $0.count)
    }
  }
}
