import Foundation
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import NotifSweep

/// Appends to a store by a process that skips its lock, during and right after a sweep, and
/// locked appends by path (`StoreAppender`, `notif-parse --store`).
@Suite struct UnlockedAppendTests {
  /// A scratch folder with `inbox.ndjson` holding `text`; `body` gets the store's path.
  static func withStore(_ text: String, _ body: (String) throws -> Void) throws {
    let dir = try makeScratchFolder("notif-append")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("inbox.ndjson").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: store))
    try body(store)
  }

  /// Appends `text` to `path` as `>>` does: open, write, close.
  static func append(_ text: String, to path: String) {
    let fd = open(path, O_WRONLY | O_APPEND)
    _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
  }

  /// A rewrite of a store holding `text`, of which the sweep read `sweptLength` bytes; `body`
  /// gets the store's path, the rewrite and the store open for reading.
  static func withRewrite(
    _ text: String, sweptLength: Int64,
    _ body: (String, inout StoreRewrite, Int32) throws -> Void
  ) throws {
    try withStore(text) { store in
      var status = stat()
      stat(store, &status)
      let fd = open(store, O_RDONLY)
      defer { close(fd) }
      var rewrite = StoreRewrite(
        store: store, storeStatus: status, sweptLength: sweptLength, archive: nil, pid: 7)
      try body(store, &rewrite, fd)
    }
  }

  static func contents(_ path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? "<missing>"
  }

  // MARK: - What a sweep reads

  @Test func aSweepReadsAStoreThatEndsWithALineFeedWhole() throws {
    try Self.withStore("a\nb\n") { store in
      let fd = open(store, O_RDONLY)
      defer { close(fd) }
      #expect(StoreSession.sweptLength(fd: fd, size: 4) == 4)
      #expect(StoreSession.sweptLength(fd: fd, size: 0) == 0)
    }
  }

  /// Also where waiting takes no time at all (a fuzz target's frozen clock once made this
  /// wait forever): the looks are counted.
  @Test func aLastLineWithoutALineFeedThatStaysSoIsRead() throws {
    try Self.withStore("a\nb") { store in
      let fd = open(store, O_RDONLY)
      defer { close(fd) }
      var waits = 0
      let length = StoreSession.sweptLength(fd: fd, size: 3) { waits += 1 }
      #expect(length == 3)
      #expect(waits == StoreSession.unfinishedLinePolls)
    }
  }

  @Test func anUnfinishedLastLineIsWaitedForUntilItEnds() throws {
    try Self.withStore("a\nb") { store in
      let fd = open(store, O_RDONLY)
      defer { close(fd) }
      var waits = 0
      // The appender finishes its line while the sweep waits.
      let length = StoreSession.sweptLength(fd: fd, size: 3) {
        waits += 1
        if waits == 2 { Self.append("c\nd\n", to: store) }
      }
      #expect(length == 7)
    }
  }

  @Test func aStoreStillGrowingIsReadToItsLastCompleteLine() throws {
    try Self.withStore("a\nbb") { store in
      let fd = open(store, O_RDONLY)
      defer { close(fd) }
      // An appender that never gets to the end of its line within the wait.
      let length = StoreSession.sweptLength(fd: fd, size: 4) { Self.append("b", to: store) }
      #expect(length == 2)
    }
  }

  // MARK: - Taken in when the store is replaced

  @Test func commitTakesInWhatWasAppendedBeforeAndRightAfterTheRename() throws {
    try Self.withRewrite("a\nb\n", sweptLength: 4) { store, rewrite, fd in
      try rewrite.start(copying: 0..<2, from: fd)
      try Array("B".utf8).withUnsafeBytes { try rewrite.writeKept($0) }
      // During the sweep: a whole line, and the start of another.
      Self.append("c\nd", to: store)
      // An appender that opened the store before the rename writes after it.
      let late = open(store, O_WRONLY | O_APPEND)
      rewrite.afterReplacing = {
        _ = Array("\ne\n".utf8).withUnsafeBytes { write(late, $0.baseAddress, $0.count) }
        close(late)
      }
      try rewrite.commit()
      #expect(Self.contents(store) == "a\nB\nc\nd\ne\n")
      let (taken, heldOpen) = (rewrite.takenIn, rewrite.heldOpenAfterReplacing)
      #expect(taken.lines == 3)
      #expect(taken.bytes == 6)
      #expect(!heldOpen)
    }
  }

  @Test func aStoreWithNothingAppendedIsReplacedAsTheSweepWroteIt() throws {
    try Self.withRewrite("a\nb\n", sweptLength: 4) { store, rewrite, fd in
      try rewrite.start(copying: 0..<2, from: fd)
      try rewrite.commit()
      #expect(Self.contents(store) == "a\n")
      let (taken, heldOpen) = (rewrite.takenIn, rewrite.heldOpenAfterReplacing)
      #expect(taken.lines == 0)
      #expect(!heldOpen)
    }
  }

  @Test func aWriterThatKeepsTheReplacedStoreOpenIsToldOf() throws {
    try Self.withRewrite("a\n", sweptLength: 2) { store, rewrite, fd in
      let daemon = open(store, O_WRONLY | O_APPEND)  // `daemon >> inbox.ndjson`
      defer { close(daemon) }
      try rewrite.start(copying: 0..<0, from: fd)
      rewrite.afterReplacing = {
        _ = Array("x\n".utf8).withUnsafeBytes { write(daemon, $0.baseAddress, $0.count) }
      }
      try rewrite.commit()
      let heldOpen = rewrite.heldOpenAfterReplacing
      #expect(heldOpen)
      #expect(Self.contents(store) == "x\n")  // what it wrote within the drain is taken in
    }
  }

  // MARK: - Locked appends by path

  @Test func anAppenderEndsAFragmentLeftByAKilledWriterBeforeItsBatch() throws {
    try Self.withStore("{\"id\":\"a\"}\n{\"id\":") { store in
      var appender = StoreAppender(store: store, monotonicClock: { 0 })
      var lines = ByteBuffer()
      lines.append("{\"id\":\"b\"}\n")
      try appender.append(lines)
      try appender.flush()
      #expect(Self.contents(store) == "{\"id\":\"a\"}\n{\"id\":\n{\"id\":\"b\"}\n")
      #expect(appender.batches == 1)
    }
  }

  @Test func anAppenderCreatesTheStoreAndOpensItByPathForEachBatch() throws {
    let dir = try makeScratchFolder("notif-append")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("inbox.ndjson").path
    var appender = StoreAppender(store: store, monotonicClock: { 0 })
    var first = ByteBuffer()
    first.append("1\n")
    try appender.append(first)
    try appender.flush()
    #expect(Self.contents(store) == "1\n")
    // A sweep replaces the store: the next batch goes to the new file.
    let replacement = dir.appendingPathComponent("new").path
    try Data("kept\n".utf8).write(to: URL(fileURLWithPath: replacement))
    #expect(rename(replacement, store) == 0)
    var second = ByteBuffer()
    second.append("2\n")
    try appender.append(second)
    try appender.flush()
    #expect(Self.contents(store) == "kept\n2\n")
  }

  @Test func aBatchGoesOutWhenFullOrASecondAfterItsFirstLine() throws {
    try Self.withStore("") { store in
      var now = 0.0
      var appender = StoreAppender(store: store, monotonicClock: { now }, batchBytes: 8)
      var line = ByteBuffer()
      line.append("r\n")
      try appender.append(line)
      now = 0.5
      try appender.append(line)
      #expect(appender.batches == 0)
      #expect(Self.contents(store) == "")
      now = 1.0
      try appender.append(line)
      #expect(appender.batches == 1)
      #expect(Self.contents(store) == "r\nr\nr\n")
      var big = ByteBuffer()
      big.append("0123456789\n")
      try appender.append(big)
      #expect(appender.batches == 2)
    }
  }

  @Test func anAppenderWaitsForTheLockASweepHolds() throws {
    try Self.withStore("a\n") { store in
      var lock: StoreLock? = try StoreLock(store: store, wait: 0, monotonicClock: { 0 })
      let done = DispatchSemaphore(value: 0)
      let thread = Thread {
        var appender = StoreAppender(store: store, monotonicClock: { 0 })
        var line = ByteBuffer()
        line.append("b\n")
        try? appender.append(line)
        try? appender.flush()
        done.signal()
      }
      thread.start()
      #expect(done.wait(timeout: .now() + 0.2) == .timedOut)
      #expect(Self.contents(store) == "a\n")
      lock = nil
      #expect(done.wait(timeout: .now() + 10) == .success)
      #expect(Self.contents(store) == "a\nb\n")
      _ = lock
    }
  }
}
