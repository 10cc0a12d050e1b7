import Foundation
import TestSupport
import Testing

@testable import NotifJSON

/// `readWholeFile`: a file read whole up to a limit, every way it can fail named by its step,
/// and worded as every tool words a system error.
@Suite struct WholeFileTests {
  @Test func readsAFileWholeUpToItsLimit() throws {
    let folder = try makeScratchFolder("notif-whole-file")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("file").path
    let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0) }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    #expect(try readWholeFile(path: path, limit: bytes.count) == bytes)
    #expect(try readWholeFile(path: path, limit: bytes.count, regularOnly: true) == bytes)
    #expect(throws: WholeFileError(path: path, step: .tooLong(size: 200_000), limit: 199_999)) {
      try readWholeFile(path: path, limit: 199_999)
    }
    try Data().write(to: URL(fileURLWithPath: path))
    #expect(try readWholeFile(path: path, limit: 0) == [])
  }

  @Test func readsAPipeToItsEndAndRefusesOneLongerThanTheLimit() throws {
    let text = Array("{\"policy\": {}}\n".utf8)
    #expect(try withPipe(feeding: text) { try readWholeFile(path: $0, limit: text.count) } == text)
    // A pipe already written and closed, opened again by its name: the read that goes past
    // the limit is one of the limit and a byte.
    let pipe = try #require(makePipe())
    defer { close(pipe.read) }
    let long = [UInt8](repeating: 0x20, count: 1000)
    let failure = long.withUnsafeBytes { OutputWriter.writeAll($0, to: pipe.write, name: "pipe") }
    close(pipe.write)
    #expect(failure == nil)
    let path = "/dev/fd/\(pipe.read)"
    #expect(throws: WholeFileError(path: path, step: .tooLong(size: 101), limit: 100)) {
      try readWholeFile(path: path, limit: 100)
    }
  }

  @Test func refusesWhatIsNoRegularFileBeforeReadingIt() throws {
    let folder = try makeScratchFolder("notif-whole-file")
    defer { try? FileManager.default.removeItem(at: folder) }
    let fifo = folder.appendingPathComponent("fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(throws: WholeFileError(path: fifo, step: .notRegular, limit: 10)) {
      try readWholeFile(path: fifo, limit: 10, regularOnly: true)
    }
    #expect(throws: WholeFileError(path: folder.path, step: .notRegular, limit: 10)) {
      try readWholeFile(path: folder.path, limit: 10, regularOnly: true)
    }
  }

  @Test func saysWhichStepFailedInTheWordsOfASystemError() throws {
    let folder = try makeScratchFolder("notif-whole-file")
    defer { try? FileManager.default.removeItem(at: folder) }
    let missing = folder.appendingPathComponent("missing").path
    #expect(throws: WholeFileError(path: missing, step: .open(errno: ENOENT), limit: 10)) {
      try readWholeFile(path: missing, limit: 10)
    }
    do {
      _ = try readWholeFile(path: folder.path, limit: 10)
      Issue.record("a folder was read")
    } catch {
      #expect(error.step == .read(errno: EISDIR))
      #expect(error.systemError.isReadError)
      #expect(error.description == "\(folder.path): read error: is a directory")
    }
    let cases: [(WholeFileError.Step, Int, String)] = [
      (.open(errno: ENOENT), 10, "cannot open: no such file or directory"),
      (.notRegular, 10, "not a regular file"),
      (.read(errno: EISDIR), 10, "read error: is a directory"),
      (.tooLong(size: 11), 10, "the file is longer than the limit of 10 bytes"),
      (.tooLong(size: 65 << 20), 64 << 20, "the file is longer than the limit of 64 MiB"),
    ]
    for (step, limit, message) in cases {
      #expect(
        WholeFileError(path: "f", step: step, limit: limit).systemError
          == SystemError(path: "f", message: message))
    }
  }
}
