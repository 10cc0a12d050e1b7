import Foundation
import Testing

@testable import NotifJSON

/// Texts of any length, in any layout, from a file or a pipe: each is parsed a few times over
/// at most (linear time), and one longer than the limit is read past in memory bounded by the
/// limit, not by its length (issue 18). Counted in bytes handed to the parser and in the
/// reader's buffer, never timed.
@Suite struct LongTextTests {
  static let limit = 1 << 20

  /// A pretty-printed object of about `size` bytes: a member a line, indented, as `jq .` or
  /// `JSON.stringify(_, null, 2)` write it.
  static func pretty(_ size: Int, key: String = "k") -> [UInt8] {
    var text = "{\n"
    var index = 0
    while text.utf8.count < size {
      text += "  \"\(key)\(index)\": \"value number \(index)\",\n"
      index += 1
    }
    text += "  \"last\": true\n}\n"
    return Array(text.utf8)
  }

  /// One line of about `size` bytes: an object with one long string.
  static func longLine(_ size: Int) -> [UInt8] {
    Array(#"{"body":""#.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: size)
      + Array("\"}\n".utf8)
  }

  /// Reads `bytes` from `feed` with a reader of `limit`; the events, and the reader's count of
  /// bytes parsed and its buffer's size at the end.
  static func read(_ bytes: [UInt8], _ feed: Feed, limit: Int = limit) throws -> (
    events: [ReadEvent], parsed: Int, capacity: Int
  ) {
    try withInput(bytes, feed) { fd in
      var reader = RecordReader(fd: fd, name: "input", maxRecordBytes: limit)
      let events = try collect(&reader)
      return (events, reader.bytesParsed, reader.capacity)
    }
  }

  static let feeds: [Feed] = [.file, .pipe(chunk: 4096), .pipe(chunk: 65536)]

  @Test(arguments: feeds)
  func aLongPrettyPrintedTextIsParsedAFewTimesOverHoweverItArrives(_ feed: Feed) throws {
    // Read 4 KiB at a time, the text would be parsed again at each new line: hundreds of times.
    let text = Self.pretty(600_000)
    let after = Array("{\"b\":1}\n".utf8)
    let result = try Self.read(text + after, feed)
    #expect(result.events.count == 2)
    #expect(result.events.last == .record("{\"b\":1}", line: text.count(where: { $0 == 0x0A }) + 1))
    #expect(result.parsed <= 3 * text.count + after.count, "\(result.parsed) bytes parsed")
  }

  @Test(arguments: feeds)
  func aLongLineIsParsedAFewTimesOverHoweverItArrives(_ feed: Feed) throws {
    let line = Self.longLine(700_000)
    let result = try Self.read(line + Array("[2]\n".utf8), feed)
    #expect(result.events.count == 2)
    #expect(result.parsed <= 3 * line.count + 4, "\(result.parsed) bytes parsed")
  }

  /// Each of the layouts a text longer than the limit may come in: one line, a pretty-printed
  /// text over many lines, or a line of many texts one of which is too long. The reader reports
  /// it, reads past it, reads the good text after it, and neither parses nor keeps more than
  /// about the limit of it.
  @Test(arguments: feeds)
  func aTextOverTheLimitIsReadPastInMemoryBoundedByTheLimit(_ feed: Feed) throws {
    let layouts: [(name: String, text: [UInt8], line: Int, column: Int, next: Int)] = [
      ("one line", Self.longLine(5 * Self.limit), 2, 1, 3),
      ("pretty-printed", Self.pretty(5 * Self.limit), 2, 1, 0),
      ("on a line of texts", Array("[0] ".utf8) + Self.longLine(5 * Self.limit), 2, 5, 3),
    ]
    for layout in layouts {
      let before = Array("{\"a\":1}\n".utf8)
      let after = Array("{\"b\":2}\n".utf8)
      let result = try Self.read(before + layout.text + after, feed)
      let nextLine = 2 + layout.text.count(where: { $0 == 0x0A })
      #expect(
        result.events.count == (layout.name == "on a line of texts" ? 4 : 3), "\(layout.name)")
      #expect(result.events.first == .record("{\"a\":1}", line: 1), "\(layout.name)")
      #expect(
        result.events.contains(
          .failure(
            .recordTooLarge,
            "JSON text is longer than the limit of \(Self.limit) bytes (--max-record-bytes)",
            line: layout.line, column: layout.column)), "\(layout.name): \(result.events)")
      #expect(result.events.last == .record("{\"b\":2}", line: nextLine), "\(layout.name)")
      #expect(result.parsed <= 3 * Self.limit + 64, "\(layout.name): \(result.parsed) parsed")
      #expect(
        result.capacity <= Self.limit + 2 * RecordReader.readSize,
        "\(layout.name): a buffer of \(result.capacity) bytes")
    }
  }

  /// A line of small values longer than the limit: the parser stops at the limit, so its tape
  /// (a token for every value) is that of the limit, not of the line.
  @Test(arguments: feeds)
  func theTapeOfATextOverTheLimitIsThatOfTheLimit(_ feed: Feed) throws {
    var line = Array("[0".utf8)
    line += [UInt8](repeating: 0, count: 0)
    for _ in 0..<(2 * Self.limit) { line += Array(",0".utf8) }
    line += Array("]\n{}\n".utf8)
    let result = try Self.read(line, feed)
    #expect(result.events.count == 2)
    #expect(result.parsed <= 3 * Self.limit + 64, "\(result.parsed) bytes parsed")
  }

  @Test func positionsOfManyOffsetsAreThoseOfEachOne() throws {
    let input = "[1]\n  {\"é\": [1, 2],\n \"b\": \"ü\\u00fc\",\n\n  \"c\": {\"d\": null}}\n"
    let agree = try withInput(Array(input.utf8), .file) { fd -> Bool in
      var reader = RecordReader(fd: fd, name: "input", maxRecordBytes: Self.limit)
      _ = try reader.next()
      guard try reader.next() == .record else { return false }
      let offsets = reader.withRecord { view in
        view.tokens.map { Int($0.start) }.reversed() + [Int(view.tokens[0].end) - 1, 0]
      }
      let each = offsets.map { reader.position(ofRecordOffset: $0) }
      let all = reader.positions(ofRecordOffsets: offsets)
      return each.elementsEqual(all, by: { $0.line == $1.line && $0.column == $1.column })
        && all.contains { $0.line == 5 && $0.column > 1 }
    }
    #expect(agree)
  }
}
