import Testing

@testable import NotifJSON

/// A compressed input (a rotated log, an archive) is told by its first bytes: the reader
/// reports it once, at its start, and reads no further, instead of a JSON error per line of
/// noise.
@Suite struct CompressionTests {
  /// The first bytes of a real stream of each format, a few bytes past the magic number, and
  /// a line feed soon after: the reader must not go on to it.
  static let streams: [(Compression, [UInt8])] = [
    (.gzip, [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x0A, 0x7B, 0x7D, 0x0A]),
    (.zstd, [0x28, 0xB5, 0x2F, 0xFD, 0x24, 0x0A, 0x7B, 0x7D, 0x0A]),
    (.xz, [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00, 0x04, 0x0A, 0x7B, 0x7D, 0x0A]),
    (.bzip2, Array("BZh91AY&SY\n{}\n".utf8)),
  ]

  @Test(arguments: streams.map(\.0))
  func knowsEachFormatByItsMagicNumber(_ format: Compression) throws {
    let bytes = try #require(Self.streams.first { $0.0 == format }).1
    #expect(bytes.withUnsafeBytes { Compression(startOf: $0) } == format)
    // The magic number alone is enough; one byte short of it is not.
    #expect(format.magic.withUnsafeBytes { Compression(startOf: $0) } == format)
    #expect(format.magic.dropLast().withUnsafeBytes { Compression(startOf: $0) } == nil)
    #expect(format.magic.dropLast().withUnsafeBytes { Compression.mayBeCutShort($0) })
    #expect(format.magic.count <= Compression.longestMagic)
    #expect(Compression.mayStart(with: format.magic[0]))
  }

  @Test func saysWhatToRunInOneLine() {
    #expect(
      Compression.gzip.message == "the input is gzip-compressed: decompress it first (gzip -dc)")
    #expect(Compression.zstd.decompressor == "zstd -dc")
    #expect(Compression.xz.decompressor == "xz -dc")
    #expect(Compression.bzip2.decompressor == "bzip2 -dc")
  }

  /// No JSON text and no white space starts with a byte a magic number starts with: a JSON
  /// input is never taken for a compressed one, nor kept waiting for more of its first bytes.
  @Test func noJSONTextStartsLikeACompressedStream() {
    for byte in Array("{[\"-0123456789tfn \t\r\n".utf8) + [0xEF] {
      #expect(!Compression.mayStart(with: byte), "\(byte)")
    }
    for text in ["BZ", "BZx", "(", "{}"] {
      #expect(Array(text.utf8).withUnsafeBytes { Compression(startOf: $0) } == nil, "\(text)")
    }
  }

  /// One failure at the first byte, with the message that says what to run, then the end:
  /// nothing after it is read, from a file or a pipe however it arrives.
  @Test(arguments: streams.map(\.0), [Feed.file, .pipe(chunk: 1), .pipe(chunk: 4096)])
  func aCompressedInputIsOneFailureThenTheEnd(_ format: Compression, _ feed: Feed) throws {
    let bytes = try #require(Self.streams.first { $0.0 == format }).1
    let events = try read(bytes + Array(#"{"id":"after"}"#.utf8) + [0x0A], feed)
    #expect(events == [.failure(.invalidJSON, format.message, line: 1, column: 1)])
    let compression = try withInput(bytes, feed) { fd in
      var reader = RecordReader(fd: fd, name: "input", maxRecordBytes: 1 << 20)
      _ = try collect(&reader)
      let endedBetweenTexts = reader.endedBetweenTexts
      #expect(!endedBetweenTexts)
      return reader.compression
    }
    #expect(compression == format)
  }

  /// `nextOrLine()`, which hands over lines that start no text, says so too, rather than
  /// handing the compressed bytes over as a line.
  @Test func aReaderOfLinesSaysSoToo() throws {
    let bytes = Self.streams[0].1
    #expect(
      try readWithLines(bytes) == [
        .failure(.invalidJSON, Compression.gzip.message, line: 1, column: 1)
      ])
  }

  /// A piece of a stream cut for workers (`FileChunks`) that starts the stream and finds it
  /// compressed does not end between texts: one reader of the whole takes it over, and
  /// reports it once. A piece that does not start the stream is read as it is.
  @Test func aFirstChunkOfACompressedStreamIsHandedOver() {
    let bytes = Self.streams[1].1
    bytes.withUnsafeBytes { raw in
      var first = RecordReader(
        borrowing: raw, name: "input", maxRecordBytes: 1 << 20, line: 1, atStreamStart: true)
      #expect(
        (try? first.next())
          == .failure(JSONError(.invalidJSON, at: 0, Compression.zstd.message), line: 1, column: 1))
      #expect((try? first.next()) == .end)
      let (ended, found) = (first.endedBetweenTexts, first.compression)
      #expect(!ended && found == .zstd)
      var later = RecordReader(
        borrowing: raw, name: "input", maxRecordBytes: 1 << 20, line: 7, atStreamStart: false)
      while let event = try? later.next(), event != .end {}
      let none = later.compression
      #expect(none == nil)
    }
  }

  /// Texts that only look like a magic number's first bytes are read as ever.
  @Test(arguments: [Feed.file, .pipe(chunk: 1)])
  func jsonThatStartsLikeNoMagicNumberReadsAsEver(_ feed: Feed) throws {
    #expect(
      try read("{\"a\":1}\n[2]\n", feed) == [
        .record(#"{"a":1}"#, line: 1), .record("[2]", line: 2),
      ])
    let events = try read("BZ{}\n{\"a\":1}\n", feed)
    #expect(events.count == 2 && events.last == .record(#"{"a":1}"#, line: 2), "\(events)")
    #expect(
      events.first.map {
        if case .failure(_, let m, _, _) = $0 { !m.contains("compressed") } else { false }
      } == true)
  }
}
