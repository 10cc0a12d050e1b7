import Foundation
import NotifJSON
import NotifModel
import Testing

@testable import NotifModel
@testable import NotifSweep

/// Writes `bytes` to a new temporary file and calls `body` with a read descriptor of it.
private func withFile<R>(_ bytes: [UInt8], _ body: (Int32) throws -> R) throws -> R {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "notif-model-\(UUID().uuidString)")
  try Data(bytes).write(to: url)
  defer { try? FileManager.default.removeItem(at: url) }
  let fd = open(url.path, O_RDONLY)
  defer { close(fd) }
  return try body(fd)
}

/// Every line a `LineReader` gives for `bytes`, as strings, with the bytes it counted.
private func lines(_ bytes: [UInt8]) throws -> ([String], Int64, Int64) {
  try withFile(bytes) { fd in
    var reader = LineReader(fd: fd, name: "test")
    var lines: [String] = []
    while let line = try reader.next() {
      lines.append(String(decoding: line, as: UTF8.self))
    }
    return (lines, reader.bytesRead, reader.byteOrderMarkLength)
  }
}

@Suite struct LineReaderTests {
  @Test(arguments: [
    ("a\nb\n", ["a", "b"]),
    ("a\nb", ["a", "b"]),
    ("a\r\n\nb\r\n", ["a\r", "", "b\r"]),
    ("", []),
    ("\n", [""]),
    ("x\u{2028}y\n", ["x\u{2028}y"]),
  ])
  func splitsOnNewlineBytesOnlyAndKeepsEverythingElse(_ text: String, _ expected: [String]) throws {
    let (got, bytes, _) = try lines(Array(text.utf8))
    #expect(got == expected)
    #expect(bytes == Int64(text.utf8.count))
  }

  @Test func skipsOneByteOrderMarkAtTheStartAndCountsIt() throws {
    let (got, bytes, mark) = try lines([0xEF, 0xBB, 0xBF] + Array("{}\n{}\n".utf8))
    #expect(got == ["{}", "{}"])
    #expect(bytes == 9)
    #expect(mark == 3)
  }

  @Test(arguments: [
    (0, [String]()), (2, ["a"]), (3, ["a", "b"]), (4, ["a", "b"]), (99, ["a", "b", "c"]),
  ])
  func readsNoMoreThanItsLength(_ length: Int, _ expected: [String]) throws {
    try withFile(Array("a\nb\nc\n".utf8)) { fd in
      var reader = LineReader(fd: fd, name: "test", length: Int64(length))
      var got: [String] = []
      while let line = try reader.next() { got.append(String(decoding: line, as: UTF8.self)) }
      #expect(got == expected)
      #expect(reader.bytesRead == Int64(min(length, 6)))
    }
  }

  @Test func readsLinesLongerThanItsBuffer() throws {
    let long = String(repeating: "x", count: 1_300_000)
    let (got, _, _) = try lines(Array("\(long)\nshort\n\(long)".utf8))
    #expect(got.map(\.count) == [1_300_000, 5, 1_300_000])
  }

  /// Lines longer than the limit come in parts, each of at most what was read, and the reader
  /// holds no more than about the limit; lines up to the limit come whole. Every byte is
  /// counted once and every line numbered once, whether or not the parts are taken.
  @Test(arguments: [1, 100, 4_096, 300_000], [true, false])
  func givesLinesLongerThanItsLimitInParts(_ limit: Int, _ takesParts: Bool) throws {
    let lengths = [0, limit, limit + 1, 3 * limit, 300_001, 5, 600_000]
    var bytes: [UInt8] = []
    for (n, length) in lengths.enumerated() {
      bytes += (0..<length).map { UInt8(ascii: "a") + UInt8(($0 + n) % 26) }
      if n < lengths.count - 1 { bytes.append(0x0A) }  // the last line has no line feed
    }
    try withFile(bytes) { fd in
      var reader = LineReader(fd: fd, name: "test", maxLineBytes: limit)
      var got: [(length: Int, overlong: Bool, number: Int)] = []
      var rebuilt: [UInt8] = []
      while let line = try reader.next() {
        var length = line.count
        rebuilt += line
        if reader.isOverlong && takesParts {
          #expect(line.count > limit)
          while let part = try reader.nextPart() {
            #expect(!part.isEmpty)
            length += part.count
            rebuilt += part
          }
        }
        if !reader.isOverlong { #expect(line.count <= limit) }
        got.append((length, reader.isOverlong, reader.lineNumber))
        rebuilt.append(0x0A)
      }
      #expect(got.map(\.number) == Array(1...lengths.count))
      #expect(got.map(\.overlong) == lengths.map { $0 > limit })
      #expect(reader.bytesRead == Int64(bytes.count))
      if takesParts {
        #expect(got.map(\.length) == lengths)
        #expect(rebuilt.dropLast() == bytes[...])
      }
    }
  }

  @Test func trimmedDropsSurroundingWhiteSpaceOnly() {
    let bytes = Array(" \t{\"a\": 1} \r".utf8)
    bytes.withUnsafeBytes { raw in
      #expect(String(decoding: LineReader.trimmed(raw), as: UTF8.self) == "{\"a\": 1}")
    }
  }
}

/// Parses one line and returns what the record view says of it.
private func view<R>(_ line: String, _ body: (RecordLineResult, RecordView?) -> R) -> R {
  var parser = RecordLineParser()
  let bytes = Array(line.utf8)
  return bytes.withUnsafeBytes { raw in
    let result = parser.parse(raw)
    return body(result, result == .record ? parser.record : nil)
  }
}

@Suite struct RecordLineParserTests {
  @Test func findsFieldsInRecordOrderAndOutOfOrder() {
    view(#"{"id":"a","app":"x","created_at":"2026-11-22T09:00:00Z","read_at":null}"#) {
      result, record in
      #expect(result == .record)
      guard let record else { return }
      #expect(record.stringEquals(.id, Array("a".utf8)))
      #expect(record.stringEquals(.app, Array("x".utf8)))
      #expect(record.time(.createdAt) == .time(Timestamp(seconds: 1_795_338_000)))
      #expect(record.time(.readAt) == .null)
      #expect(record.time(.seenAt) == .absent)
      #expect(record.isNull(.collapseID))
    }
  }

  @Test func findsAKeySpelledWithEscapes() {
    view(#"{"coll\u0061pse_id":"k","app":"x"}"#) { _, record in
      #expect(record?.isNull(.collapseID) == false)
      #expect(record?.stringEquals(.collapseID, Array("k".utf8)) == true)
    }
  }

  @Test(arguments: [
    ("   ", RecordLineResult.blank),
    ("[1]", .failed(JSONError(.invalidJSON, at: 0, "a record is a JSON object"))),
    (
      #"{"a":1} {"#,
      .failed(JSONError(.invalidJSON, at: 8, "more text after the record on the same line"))
    ),
    (#"  {"a":1,"a":2}"#, .failed(JSONError(.duplicateKey, at: 9, "duplicate key 'a'"))),
  ])
  func reportsWhatIsNotARecordWithItsOffsetInTheLine(_ line: String, _ expected: RecordLineResult) {
    view(line) { result, _ in
      guard case .failed(let got) = result, case .failed(let wanted) = expected else {
        #expect(result == expected)
        return
      }
      #expect(got.code == wanted.code && got.message == wanted.message)
      #expect(got.offset == wanted.offset, "offset")
    }
  }

  /// The record's keys in their own places are taken as distinct without the parser's
  /// duplicate check; every other line gets it: the result is the one of a parser that checks
  /// every object, offset by the leading white space.
  @Test func rootKeysAreCheckedForDuplicatesUnlessEachIsInItsPlace() {
    let keys = RecordField.allCases.map(\.key)
    func object(_ keys: [String], nested: String = "{}") -> String {
      "{"
        + keys.map { "\"\($0)\":" + ($0 == "payload" ? nested : "null") }
        .joined(separator: ",") + "}"
    }
    var lines = [object(keys), " " + object(keys) + " ", object(keys + ["extra"])]
    // Each key written again, right after itself and at the end; a key in another's place.
    for (index, key) in keys.enumerated() {
      var twice = keys
      twice.insert(key, at: index + 1)
      lines.append(object(twice))
      lines.append(object(keys + [key]))
      lines.append("  " + object(keys + [key]) + "  ")
      lines.append(object(keys + [key]) + " {")
      var swapped = keys
      swapped.swapAt(index, (index + 1) % keys.count)
      lines.append(object(swapped))
    }
    // A repeat spelled with an escape; one nested (found first: it closes first); both.
    lines.append(object(keys + [#"cre\u0061ted_at"#]))
    lines.append(object(keys, nested: #"{"a":1,"a":2}"#))
    lines.append(object(keys + ["id"], nested: #"{"a":1,"a":2}"#))
    var reference = JSONParser()
    for line in lines {
      let bytes = Array(line.utf8)
      let leading = bytes.prefix { $0 == 0x20 }.count
      let expected: JSONError? = bytes.withUnsafeBytes { raw in
        let text = UnsafeRawBufferPointer(rebasing: raw[leading...])
        guard case .failed(var error) = reference.parse(text, isFinal: true) else { return nil }
        error.offset += leading
        return error
      }
      view(line) { result, _ in
        if let expected {
          #expect(result == .failed(expected), "\(line)")
        } else if case .failed(let error) = result {
          // Only the text after the record remains for the line parser to reject.
          #expect(error.message == "more text after the record on the same line", "\(line)")
        } else {
          #expect(result == .record, "\(line)")
        }
      }
    }
  }

  @Test(arguments: [
    (#"{"expires_at":"2026-11-22T09:00:00Z"}"#, false),
    (#"{"expires_at":null}"#, false),
    (#"{}"#, false),
    (#"{"expires_at":1795338000}"#, true),
    (#"{"expires_at":"2026-02-30T00:00:00Z"}"#, true),
    (#"{"expires_at":"2026-11-22T09:00:00"}"#, true),
  ])
  func tellsInvalidTimesFromNullAndMissing(_ line: String, _ invalid: Bool) {
    view(line) { _, record in #expect(record?.isInvalidTime(.expiresAt) == invalid) }
  }

  @Test func keyPartsSeparateNullFromTheStringNull() {
    view(#"{"app":null,"thread_id":"null","category":"a\"b"}"#) { _, record in
      guard let record else { return }
      var app: [UInt8] = []
      var thread: [UInt8] = []
      var category: [UInt8] = []
      record.appendKeyPart(.app, to: &app)
      record.appendKeyPart(.threadID, to: &thread)
      record.appendKeyPart(.category, to: &category)
      #expect(app != thread)
      #expect(category == [0x22] + Array("a\"b".utf8) + [0xFF])
    }
  }
}

@Suite struct ArchiveEntryTests {
  @Test(arguments: [
    (
      #"{"id":"a","payload":{}}"#, RemovalReason.expired,
      #"{"id":"a","payload":{},"removed_at":"2026-11-22T09:00:00Z","removed_reason":"expired"}"#
    ),
    ("{ }", .deleted, #"{ "removed_at":"2026-11-22T09:00:00Z","removed_reason":"deleted"}"#),
    (
      #"{"x":1}"#, .readExpired,
      #"{"x":1,"removed_at":"2026-11-22T09:00:00Z","removed_reason":"read-expired"}"#
    ),
  ])
  func insertsTheTwoKeysBeforeTheFinalBrace(
    _ record: String, _ reason: RemovalReason, _ expected: String
  ) {
    var out = ByteBuffer()
    Array(record.utf8).withUnsafeBytes {
      ArchiveEntry.write(
        record: $0, isEmptyObject: record == "{ }", removedAt: Timestamp(seconds: 1_795_338_000),
        reason: reason, into: &out)
    }
    #expect(out.text == expected + "\n")
  }

  @Test func reasonsAreSpelledAsDocumented() {
    #expect(
      RemovalReason.allCases.map(\.rawValue) == [
        "expired", "read-expired", "over-cap", "collapsed", "deleted", "pruned",
      ])
  }
}

@Suite(.serialized) struct StoreLockAndRewriteTests {
  static func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "notif-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test func aSecondLockIsRefusedUntilTheFirstIsReleased() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("inbox.ndjson").path
    var clock = 0.0
    let first = try StoreLock(store: store, wait: 0) { clock }
    #expect(throws: StoreLockError.held(path: store + ".lock")) {
      _ = try StoreLock(store: store, wait: 0.05) {
        clock += 0.01
        return clock
      }
    }
    first.release()
    let again = try StoreLock(store: store, wait: 0) { 0 }
    again.release()
  }

  @Test func aRewriteThatNeverStartsLeavesNothing() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("inbox.ndjson").path
    try Data("a\n".utf8).write(to: URL(fileURLWithPath: store))
    var status = stat()
    stat(store, &status)
    var rewrite = StoreRewrite(store: store, storeStatus: status, archive: nil, pid: 7)
    rewrite.abandon()
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["inbox.ndjson"])
  }

  @Test func commitCopiesThePrefixKeepsTheModeAndArchivesFirst() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("inbox.ndjson").path
    let archive = dir.appendingPathComponent("archive.ndjson").path
    try Data("keep-1\nkeep-2\ngone\nkeep-3\n".utf8).write(to: URL(fileURLWithPath: store))
    chmod(store, 0o640)
    var status = stat()
    stat(store, &status)
    let fd = open(store, O_RDONLY)
    defer { close(fd) }
    var rewrite = StoreRewrite(store: store, storeStatus: status, archive: archive, pid: 7)
    try rewrite.start(copying: 0..<14, from: fd)
    #expect(FileManager.default.fileExists(atPath: store + ".sweep"))
    var gone = ByteBuffer()
    gone.append("gone!\n")
    try rewrite.writeArchived(gone)
    try Array("keep-3".utf8).withUnsafeBytes { try rewrite.writeKept($0) }
    try rewrite.commit()
    #expect(try String(contentsOfFile: store, encoding: .utf8) == "keep-1\nkeep-2\nkeep-3\n")
    #expect(try String(contentsOfFile: archive, encoding: .utf8) == "gone!\n")
    stat(store, &status)
    #expect(status.st_mode & 0o777 == 0o640)
    #expect(!FileManager.default.fileExists(atPath: store + ".sweep"))
  }

  @Test func recoverTakesBackAnInterruptedSweepsArchiveEntries() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("inbox.ndjson").path
    let archive = dir.appendingPathComponent("archive.ndjson").path
    try Data("old\ngone\n".utf8).write(to: URL(fileURLWithPath: store))
    try Data("earlier\n".utf8).write(to: URL(fileURLWithPath: archive))
    var status = stat()
    stat(store, &status)
    let fd = open(store, O_RDONLY)
    defer { close(fd) }
    var rewrite = StoreRewrite(store: store, storeStatus: status, archive: archive, pid: 99)
    try rewrite.start(copying: 0..<4, from: fd)
    // As if killed after the archive was written but before the rename: the entries are in
    // the archive and the record still in the store.
    let handle = try #require(FileHandle(forWritingAtPath: archive))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("gone\n".utf8))
    try handle.close()
    #expect(try StoreRewrite.recover(store: store) == [])
    #expect(try String(contentsOfFile: archive, encoding: .utf8) == "earlier\n")
    #expect(try String(contentsOfFile: store, encoding: .utf8) == "old\ngone\n")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == [
        "archive.ndjson", "inbox.ndjson",
      ])
  }

  /// A journal whose archive size is negative is not one a sweep writes: recovery ignores and
  /// removes it, as any other broken journal, instead of failing every later sweep on
  /// `ftruncate` (found by the fuzz target `store-recovery`).
  @Test func recoverIgnoresAJournalWithANegativeArchiveSize() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("inbox.ndjson").path
    let archive = dir.appendingPathComponent("archive.ndjson").path
    try Data("old\n".utf8).write(to: URL(fileURLWithPath: store))
    try Data("earlier\n".utf8).write(to: URL(fileURLWithPath: archive))
    var status = stat()
    stat(archive, &status)
    let journal =
      "notif-sweep-journal 1\n1 2\n\(UInt64(status.st_dev)) \(UInt64(status.st_ino)) -1\n"
      + "path \(archive)"
    try Data(journal.utf8).write(to: URL(fileURLWithPath: store + ".sweep"))
    #expect(try StoreRewrite.recover(store: store) == [])
    #expect(try String(contentsOfFile: archive, encoding: .utf8) == "earlier\n")
    #expect(try String(contentsOfFile: store, encoding: .utf8) == "old\n")
    #expect(!FileManager.default.fileExists(atPath: store + ".sweep"))
  }

  /// A journal that names one file twice (the archive given as the quarantine file too) cuts
  /// it back once, to the largest size an entry gives: never below what was there before the
  /// sweep (found by the fuzz target `store-recovery`).
  @Test func recoverCutsAFileNamedTwiceToItsLargestSize() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("inbox.ndjson").path
    let archive = dir.appendingPathComponent("archive.ndjson").path
    try Data("old\n".utf8).write(to: URL(fileURLWithPath: store))
    try Data("earlier\nswept\n".utf8).write(to: URL(fileURLWithPath: archive))
    var status = stat()
    stat(archive, &status)
    let file = "\(UInt64(status.st_dev)) \(UInt64(status.st_ino))"
    let journal =
      "notif-sweep-journal 1\n1 2\n\(file) 8\npath \(archive)\n\(file) 0\npath \(archive)"
    try Data(journal.utf8).write(to: URL(fileURLWithPath: store + ".sweep"))
    #expect(try StoreRewrite.recover(store: store) == [])
    #expect(try String(contentsOfFile: archive, encoding: .utf8) == "earlier\n")
    #expect(try String(contentsOfFile: store, encoding: .utf8) == "old\n")
  }

  @Test func recoverTakesBackAnInterruptedSweepsQuarantineEntriesToo() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("inbox.ndjson").path
    let archive = dir.appendingPathComponent("archive.ndjson").path
    let quarantine = dir.appendingPathComponent("quarantine.ndjson").path
    try Data("old\ngone\nbad\n".utf8).write(to: URL(fileURLWithPath: store))
    try Data("earlier\n".utf8).write(to: URL(fileURLWithPath: archive))
    try Data("earlier bad\n".utf8).write(to: URL(fileURLWithPath: quarantine))
    var status = stat()
    stat(store, &status)
    let fd = open(store, O_RDONLY)
    defer { close(fd) }
    var rewrite = StoreRewrite(
      store: store, storeStatus: status, archive: archive, quarantine: quarantine, pid: 99)
    try rewrite.start(copying: 0..<4, from: fd)
    let journal = try String(contentsOfFile: store + ".sweep", encoding: .utf8)
    #expect(journal.hasSuffix(" 12\npath \(quarantine)"))
    // As if killed after both files were written but before the rename.
    for (path, line) in [(archive, "gone\n"), (quarantine, "{\"line\":3}\n")] {
      let handle = try #require(FileHandle(forWritingAtPath: path))
      try handle.seekToEnd()
      try handle.write(contentsOf: Data(line.utf8))
      try handle.close()
    }
    #expect(try StoreRewrite.recover(store: store) == [])
    #expect(try String(contentsOfFile: archive, encoding: .utf8) == "earlier\n")
    #expect(try String(contentsOfFile: quarantine, encoding: .utf8) == "earlier bad\n")
    #expect(try String(contentsOfFile: store, encoding: .utf8) == "old\ngone\nbad\n")
  }

  @Test func aQuarantineFileWithoutAnArchiveIsJournaledToo() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("inbox.ndjson").path
    let quarantine = dir.appendingPathComponent("quarantine.ndjson").path
    try Data("bad\nok\n".utf8).write(to: URL(fileURLWithPath: store))
    var status = stat()
    stat(store, &status)
    let fd = open(store, O_RDONLY)
    defer { close(fd) }
    var rewrite = StoreRewrite(
      store: store, storeStatus: status, archive: nil, quarantine: quarantine, pid: 99)
    try rewrite.start(copying: 0..<0, from: fd)
    #expect(FileManager.default.fileExists(atPath: store + ".sweep"))
    var entries = ByteBuffer()
    entries.append("{\"line\":1}\n")
    try rewrite.writeQuarantined(entries)
    try rewrite.commit()
    #expect(try String(contentsOfFile: quarantine, encoding: .utf8) == "{\"line\":1}\n")
    #expect(!FileManager.default.fileExists(atPath: store + ".sweep"))
  }
}

@Suite struct QuarantineEntryTests {
  @Test(arguments: [
    (
      "not json", "InvalidJSON", "unexpected word 'not'",
      #"{"line":7,"code":"InvalidJSON","reason":"unexpected word 'not'","text":"not json"}"#
    ),
    (
      "{\"a\":\"\t\"\r", "BadRecord", "say \"why\"",
      #"{"line":7,"code":"BadRecord","reason":"say \"why\"","text":"{\"a\":\"\t\"\r"}"#
    ),
  ])
  func writesTheLineAsAJSONString(_ line: String, _ code: String, _ reason: String, _ entry: String)
  {
    var out = ByteBuffer()
    Array(line.utf8).withUnsafeBytes {
      QuarantineEntry.write(line: $0, number: 7, code: code, reason: reason, into: &out)
    }
    #expect(out.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } == entry + "\n")
  }

  @Test func writesInvalidUTF8AsBase64() {
    for (bytes, base64) in [
      ([0xFF] as [UInt8], "/w=="), ([0xFF, 0x61], "/2E="), ([0xFF, 0x61, 0x62], "/2Fi"),
      ([0xC3, 0x28, 0x0D, 0x0A], "wygNCg=="),
    ] {
      var out = ByteBuffer()
      bytes.withUnsafeBytes {
        QuarantineEntry.write(line: $0, number: 1, code: "InvalidUTF8", reason: "r", into: &out)
      }
      #expect(
        out.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
          == #"{"line":1,"code":"InvalidUTF8","reason":"r","base64":""# + base64 + "\"}\n")
      #expect(Data(base64Encoded: base64) == Data(bytes))
    }
  }
}
