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
}
