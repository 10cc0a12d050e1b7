import Foundation
import TestSupport
import Testing

@testable import NotifJSON

/// Where `FileChunks` cuts a file: after the last line feed of what it read, counting lines. (Its
/// reading in chunks is tested through the tools that use it: `ChunkedReadingTests` of
/// notif-parse, `ChunkedGroupingTests` of notif-group.)
@Suite struct FileChunksTests {
  @Test(arguments: [
    (Array("a\nbc\n\nd".utf8), 3, 5), (Array("abc".utf8), 0, nil), ([], 0, nil),
    (Array("\n".utf8), 1, 0),
  ])
  func findsLineFeeds(_ bytes: [UInt8], _ count: Int, _ last: Int?) {
    bytes.withUnsafeBytes { raw in
      #expect(FileChunks.lineFeeds(in: raw) == count)
      if let base = raw.baseAddress {
        #expect(FileChunks.lastLineFeed(base, raw.count) == last)
      }
    }
  }

  /// Lines that read alone start with `{` or `[` and end with `}` or `]`, blank lines among
  /// them, and the texts of the last end on it; a text that goes on past its line, or is left
  /// open at the end of the last, or a line a skipping reader would pass by, does not.
  @Test(arguments: [
    ("{\"a\":1}\n[1,2]  \r\n\n   \n{} {}\n", false, true),
    ("\u{FEFF}{\"a\":1}\n", true, true),
    ("\u{FEFF}{\"a\":1}\n", false, false),
    ("{\"a\":\n1}\n", false, false),
    ("{\"a\":{\"b\":1}\n}\n", false, false),
    ("[1,\n2]\n", false, false),
    ("{\"a\":1}\n,{\"b\":2}\n", false, false),
    ("  {\"a\":1}\n", false, false),
    ("{\"a\":1} x\n", false, false),
    ("1\n", false, false),
    ("not json\n", false, false),
    ("{\"a\":\"x\n\"}\n", false, false),
    ("{\"a\":1}", false, true),
    ("", false, true),
    ("{\"a\":{\"b\":1}\n{\"c\":1}\n", false, true),
    ("{\"c\":1}\n{\"a\":{\"b\":1}\n", false, false),
    ("{\"c\":1}\n{\"a\":1}{\"b\":\n\n", false, false),
    ("{\"c\":1}\n{\"a\":1]}\n", false, true),
    ("{\"c\":1}\n{\"a\":1} [2] \r\n  \n", false, true),
  ])
  func linesReadAloneWhenEachHoldsItsTexts(_ text: String, _ atStart: Bool, _ alone: Bool) {
    let bytes = Array(text.utf8)
    bytes.withUnsafeBytes { raw in
      let base = raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
      #expect(FileChunks.linesReadAlone(base, raw.count, atStreamStart: atStart) == alone)
    }
  }

  /// A regular file is read in chunks when it is bigger than one, a pipe always (its first
  /// chunk first), and /dev/null or a closed descriptor never.
  @Test func choosesChunksByWhatTheInputIs() throws {
    let folder = try makeScratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("records.ndjson").path
    try Data(repeating: 0x0A, count: 100).write(to: URL(fileURLWithPath: path))
    let file = open(path, O_RDONLY)
    #expect(file >= 0)
    defer { close(file) }
    #expect(FileChunks.suits(file, chunkSize: 99) == (true, false))
    #expect(FileChunks.suits(file, chunkSize: 100) == (false, false))
    let pipe = try #require(makePipe())
    defer {
      close(pipe.read)
      close(pipe.write)
    }
    #expect(FileChunks.suits(pipe.read, chunkSize: 1 << 20) == (true, true))
    let null = open("/dev/null", O_RDONLY)
    defer { close(null) }
    #expect(FileChunks.suits(null, chunkSize: 1) == (false, false))
    #expect(FileChunks.suits(-1, chunkSize: 1) == (false, false))
  }
}
