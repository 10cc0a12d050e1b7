import Foundation
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
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
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
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
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

    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { close(ends[0]) }
    Self.put("{\"a\":1}\n", ends[1])
    close(ends[1])
    var quiet = RecordReader(fd: ends[0], name: "<pipe>", maxRecordBytes: 1 << 20)
    #expect(try [quiet.next(), quiet.next()] == [.record, .end])
  }
}
