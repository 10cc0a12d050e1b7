import Foundation
import TestSupport
import Testing

@testable import NotifJSON

/// `.idle`: the reader says when the next read would wait, so that filters can write what is
/// ready first (`tail -f pushes | notif-parse`).
@Suite struct IdleTests {
  /// Writes `text` to `fd`.
  static func put(_ text: String, _ fd: Int32) {
    let bytes = Array(text.utf8)
    #expect(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count)
  }

  @Test func aPipeWithNothingMoreYetIsIdleOnceThenTheReaderWaits() throws {
    let pipe = try #require(makePipe())
    let ends = [pipe.read, pipe.write]
    defer { close(ends[0]) }
    var reader = RecordReader(
      fd: ends[0], name: "<pipe>", maxRecordBytes: 1 << 20, announcesIdle: true)
    Self.put("{\"a\":1}\n{\"b\":", ends[1])
    #expect(try reader.next() == .record)
    // The second text is cut short and nothing more is in the pipe: idle, before any wait.
    #expect(try reader.next() == .idle)
    Self.put("2}\n", ends[1])
    close(ends[1])
    #expect(try reader.next() == .record)
    #expect(reader.withRecord { $0.string(1) } == "b")
    #expect(try reader.next() == .end)
  }

  @Test func idleComesBetweenRecordsAndAtTheStart() throws {
    let pipe = try #require(makePipe())
    let ends = [pipe.read, pipe.write]
    defer { close(ends[0]) }
    var reader = RecordReader(
      fd: ends[0], name: "<pipe>", maxRecordBytes: 1 << 20, announcesIdle: true)
    #expect(try reader.next() == .idle)
    Self.put("{\"a\":1}\n", ends[1])
    #expect(try reader.next() == .record)
    #expect(try reader.next() == .idle)
    close(ends[1])
    #expect(try reader.next() == .end)
  }

  @Test func aRegularFileOrAReaderNotAskedIsNeverIdle() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "notif-idle-\(UUID().uuidString)")
    try Data("{\"a\":1}\n{\"b\":2}\n".utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let fd = open(url.path, O_RDONLY)
    defer { close(fd) }
    var file = RecordReader(fd: fd, name: "f", maxRecordBytes: 1 << 20, announcesIdle: true)
    #expect(try [file.next(), file.next(), file.next()] == [.record, .record, .end])

    let pipe = try #require(makePipe())
    let ends = [pipe.read, pipe.write]
    defer { close(ends[0]) }
    Self.put("{\"a\":1}\n", ends[1])
    close(ends[1])
    var quiet = RecordReader(fd: ends[0], name: "<pipe>", maxRecordBytes: 1 << 20)
    #expect(try [quiet.next(), quiet.next()] == [.record, .end])
  }

  /// What a reader of `pieces`, written to a pipe one at a time each time the reader is idle
  /// (the pipe closed after the last), sees: each text's first key or its error's line, and
  /// `idle` where it came. `chunks` reads through `FileChunks.read` with two workers and
  /// chunks of `chunkSize` bytes; else one `RecordReader` reads.
  ///
  /// A reader that waits without saying idle first would wait for ever: after 20 seconds the
  /// pipe is closed under it, so that the test fails instead.
  static func events(of pieces: [String], chunks: Bool, chunkSize: Int = 64) throws -> [String] {
    let pipe = try #require(makePipe())
    let ends = [pipe.read, pipe.write]
    defer { close(ends[0]) }
    let writeEnd = WriteEnd(ends[1])
    Thread.detachNewThread {
      Thread.sleep(forTimeInterval: 20)
      writeEnd.close()
    }
    defer { writeEnd.close() }
    var fed = 0
    var seen: [String] = []
    func idle() {
      // Once the last piece is in, the pipe is closed, but a process another test starts may
      // hold its write end between fork and exec: a reader that finds the pipe still open for
      // that moment is idle once more, which says nothing of the reader. Not counted.
      guard fed < pieces.count else { return }
      seen.append("idle")
      writeEnd.put(pieces[fed])
      fed += 1
      if fed == pieces.count { writeEnd.close() }
    }
    func note(_ event: RecordEvent, _ reader: borrowing RecordReader) {
      switch event {
      case .record: seen.append(reader.withRecord { $0.string(1) })
      case .failure(_, let line, _): seen.append("error at line \(line)")
      case .idle: idle()
      case .end: break
      }
    }
    func readAll(_ reader: inout RecordReader) {
      while let event = try? reader.next(), event != .end { note(event, reader) }
    }
    guard chunks else {
      var reader = RecordReader(
        fd: ends[0], name: "<pipe>", maxRecordBytes: 1 << 20, announcesIdle: true)
      readAll(&reader)
      return seen
    }
    let workers = WorkerPool<FileChunk<[String]>, Int>(
      threads: 2, makeWorker: { $0 },
      work: { chunk, _ in
        chunk.results = chunk.read(maxRecordBytes: 1 << 20) { reader in
          var found: [String] = []
          while let event = try? reader.next(), event != .end {
            switch event {
            case .record: found.append(reader.withRecord { $0.string(1) })
            case .failure(_, let line, _): found.append("error at line \(line)")
            default: break
            }
          }
          return found
        }
      })
    defer { workers.shutdown() }
    let ring = (0..<5).map { _ in FileChunk(capacity: chunkSize, results: [String]()) }
    var number = 0
    _ = FileChunks.read(
      ends[0], name: "<pipe>", maxRecordBytes: 1 << 20, ring: ring, workers: workers,
      nextNumber: &number, announcesIdle: true, accept: { seen += $0.results }, idle: idle,
      rest: { reader, _ in
        var reader = reader
        readAll(&reader)
      })
    return seen
  }

  /// Idle comes before every wait, the wait while skipping a malformed line's remains too (the
  /// record before it goes out first): so too when the pipe is read in chunks.
  @Test func oneReaderOfAPipeIsIdleBeforeEachWait() throws {
    let pieces = [
      "{\"a\":1}\n{\"b\":2}\n{\"c\":", "3}\n", "not json\n", "{\"d\":4}\n", "{\"e\":5}",
    ]
    let expected = [
      "idle", "a", "b", "idle", "c", "idle", "error at line 4", "idle", "d", "idle", "e",
    ]
    #expect(try Self.events(of: pieces, chunks: false) == expected)
    #expect(try Self.events(of: pieces, chunks: true) == expected)
  }

  /// Chunks of a pipe end where it pauses: every text whose line has come is out before the
  /// idle, as one reader has it, whether a pause falls between lines, inside a line, inside
  /// a text spread over lines (one reader takes over from there) or after bad JSON.
  @Test(arguments: [
    ["{\"a\":1}\n{\"b\":2}\n{\"c\":", "3}\n", "{\"d\":4}\n", "{\"e\":5}"],
    ["{\"a\":1}\n{\"b\":\n", "2}\n{\"c\":3}\n", "{\"d\":4}\n"],
    ["{\"a\":1}\nnot json\n", "{\"b\":2}\n", "{\"c\":3}\n{\"d\":4}\n"],
    ["{\"a\":1}\n{\"b\":", "2,\n", "\"z\":3}\n{\"c\":3}\n"],
    [
      String(repeating: "{\"a\":1}\n", count: 30),
      "{\"b\":2}\n" + String(repeating: "{\"c\":3}\n", count: 20),
    ],
  ])
  func aPipeReadInChunksIsIdleWhereOneReaderIs(_ pieces: [String]) throws {
    let one = try Self.events(of: pieces, chunks: false)
    #expect(one.count(where: { $0 == "idle" }) == pieces.count)
    let inChunks = try Self.events(of: pieces, chunks: true)
    #expect(inChunks == one)
    let inSmallChunks = try Self.events(of: pieces, chunks: true, chunkSize: 16)
    #expect(inSmallChunks == one)
  }

  // MARK: - What counts as a pause (`InputPause`)

  /// Seconds since `start` (`InputPause.now()`, nanoseconds).
  static func seconds(since start: UInt64) -> Double {
    Double(InputPause.now() - start) / 1e9
  }

  /// A pipe that is empty for an instant but fills within the grace has not paused: the
  /// check waits for the bytes and says the read would not wait.
  @Test func aPipeThatFillsWithinTheGraceHasNotPaused() throws {
    let pipe = try #require(makePipe())
    defer { close(pipe.read) }
    let writeEnd = WriteEnd(pipe.write)
    defer { writeEnd.close() }
    var pause = InputPause(grace: 10_000, longestHold: 60_000_000_000)
    let start = InputPause.now()
    writeEnd.put("{}\n", after: 0.02)
    let filled = pause.wouldWait(pipe.read)
    #expect(!filled)
    #expect(Self.seconds(since: start) < 5, "it waited for the grace, not for the bytes")
  }

  /// A pipe with nothing for the whole grace has paused; one with bytes, or at its end
  /// (the writer gone), has not, and is answered at once.
  @Test func aPipeEmptyForTheGraceHasPausedAndOneReadyOrEndedHasNot() throws {
    let pipe = try #require(makePipe())
    defer { close(pipe.read) }
    var pause = InputPause(grace: 30, longestHold: 60_000_000_000)
    var start = InputPause.now()
    let empty = pause.wouldWait(pipe.read)
    #expect(empty)
    #expect(Self.seconds(since: start) >= 0.029)
    Self.put("{}\n", pipe.write)
    start = InputPause.now()
    let ready = pause.wouldWait(pipe.read)
    #expect(!ready)
    close(pipe.write)
    let ended = pause.wouldWait(pipe.read)
    #expect(!ended)
    #expect(Self.seconds(since: start) < 0.029)
  }

  /// Bytes read since the last pause are not held past the longest hold: once it has gone
  /// by, a pipe empty at the instant has paused without the grace. The hold starts again
  /// after the pause: the next empty instant is waited out for the grace again.
  @Test func bytesHeldPastTheLongestHoldGoOutAtTheNextEmptyInstant() throws {
    let pipe = try #require(makePipe())
    defer { close(pipe.read) }
    let writeEnd = WriteEnd(pipe.write)
    defer { writeEnd.close() }
    var pause = InputPause(grace: 10_000, longestHold: 30_000_000)
    writeEnd.put("{}\n")
    let firstRead = pause.wouldWait(pipe.read)
    #expect(!firstRead)  // the hold starts here
    var buffer = [UInt8](repeating: 0, count: 16)
    #expect(read(pipe.read, &buffer, buffer.count) == 3)
    Thread.sleep(forTimeInterval: 0.04)
    let start = InputPause.now()
    let heldTooLong = pause.wouldWait(pipe.read)
    #expect(heldTooLong)
    #expect(Self.seconds(since: start) < 5, "it waited for the grace after the longest hold")
    writeEnd.put("{}\n", after: 0.05)
    let refilled = pause.wouldWait(pipe.read)
    #expect(!refilled)
  }
}

/// The write end of a test's pipe, closed once by whichever comes first: the test, or its
/// watchdog thread.
private final class WriteEnd: @unchecked Sendable {
  private let lock = NSLock()
  private var fd: Int32?

  init(_ fd: Int32) { self.fd = fd }

  func put(_ text: String) {
    lock.withLock {
      if let fd { IdleTests.put(text, fd) }
    }
  }

  /// Writes `text` from a thread of its own, `seconds` from now (nothing if closed by then).
  func put(_ text: String, after seconds: TimeInterval) {
    Thread.detachNewThread {
      Thread.sleep(forTimeInterval: seconds)
      self.put(text)
    }
  }

  func close() {
    lock.withLock {
      if let fd { _ = Foundation.close(fd) }
      fd = nil
    }
  }
}
