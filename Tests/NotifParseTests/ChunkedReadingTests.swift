import Foundation
import NotifCLI
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import notif_parse

/// What one run wrote and returned.
private struct Outcome: Equatable, CustomStringConvertible {
  var status: NotifModel.ExitStatus
  var stdout: [UInt8]
  var stderr: [UInt8]

  var description: String {
    "status \(status.rawValue), \(stdout.count) bytes out, stderr:\n"
      + String(decoding: stderr.suffix(600), as: UTF8.self) + "\nstdout ends:\n"
      + String(decoding: stdout.suffix(300), as: UTF8.self)
  }
}

/// A temporary file holding `bytes`; removed by `remove()`.
private struct TemporaryFile {
  let path: String

  init(_ bytes: [UInt8] = []) {
    var template = Array("/tmp/notif-parse-chunks-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    precondition(fd >= 0, "mkstemp failed")
    path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
      precondition(written > 0, "write failed")
      offset += written
    }
    close(fd)
  }

  var contents: [UInt8] { FileManager.default.contents(atPath: path).map { Array($0) } ?? [] }

  func remove() { unlink(path) }
}

/// How a test's input comes: from a file, or through a pipe.
private enum Feed {
  case file
  /// A named pipe, written by a thread in pieces of 97 bytes with a pause after every third:
  /// chunks then also end where the pipe pauses.
  case slowPipe
  /// A pipe that holds the whole input, and its end, before the run starts.
  case fullPipe
}

/// Runs notif-parse on `input` with `arguments` and the chunk size given, its output going to
/// files; returns what it wrote and how many chunks it wrote and fell back from.
private func run(
  _ input: [UInt8], _ arguments: [String], chunkSize: Int = ParseRun.defaultChunkSize,
  feed: Feed = .file
) throws -> (Outcome, written: Int, fallBacks: Int) {
  switch feed {
  case .file:
    let file = TemporaryFile(input)
    defer { file.remove() }
    return try run(arguments, chunkSize: chunkSize, operand: file.path)
  case .slowPipe:
    return try withPipe(feeding: input) { try run(arguments, chunkSize: chunkSize, operand: $0) }
  case .fullPipe:
    let pipe = try #require(makePipe())
    let ends = [pipe.read, pipe.write]
    defer { close(ends[0]) }
    precondition(input.count < 65536, "more than a pipe holds")
    let written = input.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
    precondition(written == input.count, "write to the pipe failed")
    close(ends[1])
    return try run(arguments, chunkSize: chunkSize, operand: "/dev/fd/\(ends[0])")
  }
}

/// Runs notif-parse with `arguments` on the input at `operand`; see `run(_:_:chunkSize:feed:)`.
private func run(_ arguments: [String], chunkSize: Int, operand: String) throws -> (
  Outcome, written: Int, fallBacks: Int
) {
  let out = TemporaryFile()
  let err = TemporaryFile()
  defer { [out, err].forEach { $0.remove() } }
  let scanned = try OptionScanner.scan(
    ["--now", "2026-11-22T09:00:00Z"] + arguments + [operand], ParseCommand.options)
  let configuration = try ParseCommand.configure(scanned, environment: ToolEnvironment())
  let outFD = open(out.path, O_WRONLY | O_TRUNC)
  let errFD = open(err.path, O_WRONLY | O_TRUNC)
  var stdout = OutputWriter(fd: outFD, name: "<stdout>")
  var stderr = OutputWriter(fd: errFD, name: "<stderr>")
  var parse = ParseRun(configuration: configuration, chunkSize: chunkSize)
  let status = parse.execute(stdout: &stdout, stderr: &stderr)
  close(outFD)
  close(errFD)
  // The diagnostics name the file: name it the same in every run.
  let name = Array(operand.utf8)
  let stderrBytes = err.contents.replacing(name, with: Array("input".utf8))
  let stdoutBytes = out.contents.replacing(name, with: Array("input".utf8))
  return (
    Outcome(status: status, stdout: stdoutBytes, stderr: stderrBytes), parse.chunkCounts.written,
    parse.chunkCounts.fallBacks
  )
}

/// The test inputs of the golden cases of notif-parse: the corpus, and every case's stdin.
private func goldenInputs() -> [[UInt8]] {
  let cases = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("EndToEndTests/cases/notif-parse")
  let folders =
    (try? FileManager.default.contentsOfDirectory(atPath: cases.path).sorted()) ?? []
  var inputs: [[UInt8]] = []
  for folder in folders {
    let files =
      (try? FileManager.default.contentsOfDirectory(
        atPath: cases.appendingPathComponent(folder).path
      ).sorted()) ?? []
    for file in files
    where file == "stdin.ndjson" || file.hasSuffix(".json") || file.hasSuffix(".apns") {
      if let data = FileManager.default.contents(
        atPath: cases.appendingPathComponent(folder).appendingPathComponent(file).path)
      {
        inputs.append(Array(data))
      }
    }
  }
  return inputs
}

/// The JSON texts of `input` in compact form, one per line; the input as it is if it has a
/// malformed one.
private func compactLines(_ input: [UInt8]) -> [UInt8] {
  input.withUnsafeBytes { bytes in
    var reader = RecordReader(
      fd: nil, name: "input", maxRecordBytes: 1 << 20, pending: bytes, line: 1, atStreamStart: true)
    var out = ByteBuffer()
    while let event = try? reader.next(), event != .end {
      guard event == .record else { return input + [0x0A] }
      reader.withRecord { view in JSONWriter.writeCompact(view, 0, into: &out) }
      out.append(0x0A)
    }
    return out.bytes
  }
}

private let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
private let good = #"{"aps":{"alert":{"title":"Alice","body":"Lunch?"},"thread-id":"t1"}}"#
private let goodLines = (0..<40).map {
  #"{"aps":{"alert":"message \#($0)","badge":\#($0)},"n":"\#(String(repeating: "é", count: $0 % 7))"}"#
}

/// Inputs built to put every kind of trouble at every chunk boundary, for the chunk sizes used.
private let craftedInputs: [(String, [UInt8])] = [
  ("ndjson", Array(goodLines.joined(separator: "\n").utf8) + [0x0A]),
  (
    "errors between good lines",
    Array(
      goodLines.enumerated().map { index, line in
        switch index % 6 {
        case 1: return #"{"aps":{"alert":"cut"#  // cut short: the next line starts a record
        case 2: return "not json at all"
        case 3: return #"{"aps":1,"aps":2}"#
        case 4: return line + " trailing"
        default: return line
        }
      }.joined(separator: "\n").utf8) + [0x0A]
  ),
  (
    "invalid UTF-8",
    Array(goodLines[0].utf8) + [0x0A] + Array(#"{"aps":{"alert":""#.utf8) + [0xC3, 0x28]
      + Array("\"}}\n".utf8) + Array(goodLines[1].utf8) + [0x0A]
  ),
  (
    "pretty-printed texts among lines",
    Array(
      goodLines.enumerated().map { index, line in
        switch index % 5 {
        case 1: return "{\n  \"aps\": {\n    \"alert\": \"pretty \(index)\"\n  }\n}"
        case 2: return "[\n{\"aps\":{}},\n{\"aps\":{\"badge\":1}}\n]"
        case 3: return "{\n\"aps\":\n{\"alert\":\"unindented\"}\n}"
        default: return line
        }
      }.joined(separator: "\n").utf8) + [0x0A]
  ),
  ("crlf", Array(goodLines.joined(separator: "\r\n").utf8) + [0x0D, 0x0A]),
  ("byte order mark", bom + Array(goodLines.joined(separator: "\n").utf8) + [0x0A]),
  (
    "white space, then a byte order mark",
    Array(String(repeating: "  \n", count: 60).utf8) + bom
      + Array(goodLines.joined(separator: "\n").utf8)
  ),
  ("no final newline", Array(goodLines.joined(separator: "\n").utf8)),
  (
    "a long line",
    Array(goodLines[0...5].joined(separator: "\n").utf8) + [0x0A]
      + Array(#"{"aps":{"alert":"\#(String(repeating: "x", count: 3000))"}}"#.utf8) + [0x0A]
      + Array(goodLines[6...].joined(separator: "\n").utf8)
  ),
  (
    "texts near the size limit (--max-record-bytes 120)",
    Array(
      (100..<140).map { length in
        let body = String(repeating: "b", count: length - 29)
        return #"{"aps":{"alert":"\#(body)"}}"#
      }.joined(separator: "\n").utf8) + [0x0A]
  ),
]

private let chunkSizes = [24, 64, 100, 257, 1000, 4096]

@Suite struct ChunkedReadingTests {
  @Test(arguments: craftedInputs.map(\.0))
  func chunkedReadingWritesWhatOneReaderWrites(_ name: String) throws {
    let input = try #require(craftedInputs.first { $0.0 == name }).1
    let variants: [[String]] = [
      [], ["--check"], ["--format", "json", "--strict"], ["--max-record-bytes", "120"],
    ]
    for arguments in variants {
      let one = try run(input, arguments + ["--jobs", "1"])
      #expect(one.written == 0 && one.fallBacks == 0)
      for size in chunkSizes {
        let many = try run(input, arguments + ["--jobs", "3"], chunkSize: size)
        #expect(many.0 == one.0, "\(arguments), chunks of \(size) bytes")
        if input.count > size {
          #expect(many.written > 0 || many.fallBacks > 0, "chunks of \(size) bytes")
        }
      }
    }
  }

  /// A pipe is read in chunks too, which also end where it pauses: the same output. One that
  /// ends within the first chunk is read by one reader, with no thread started.
  @Test(arguments: craftedInputs.map(\.0))
  func aPipeIsReadInChunksAsAFileIs(_ name: String) throws {
    let input = try #require(craftedInputs.first { $0.0 == name }).1
    for arguments in [[], ["--check"]] {
      let one = try run(input, arguments + ["--jobs", "1"])
      for size in [64, 1000] {
        let many = try run(input, arguments + ["--jobs", "2"], chunkSize: size, feed: .slowPipe)
        #expect(many.0 == one.0, "\(arguments), chunks of \(size) bytes")
        if input.count > size {
          #expect(many.written > 0 || many.fallBacks > 0, "chunks of \(size) bytes")
        }
      }
      let whole = try run(
        input, arguments + ["--jobs", "2"], chunkSize: input.count + 1, feed: .fullPipe)
      #expect(whole.0 == one.0)
      #expect(whole.written == 0 && whole.fallBacks == 0)
      let cut = try run(
        input, arguments + ["--jobs", "2"], chunkSize: input.count - 1, feed: .fullPipe)
      #expect(cut.0 == one.0)
      #expect(cut.written > 0 || cut.fallBacks > 0)
    }
  }

  @Test func cleanNDJSONIsReadInChunksToTheEnd() throws {
    let input = craftedInputs[0].1
    for size in chunkSizes where size > 200 {  // longer than every line
      let many = try run(input, ["--jobs", "2"], chunkSize: size)
      #expect(many.fallBacks == 0, "chunks of \(size) bytes")
      #expect(many.written >= input.count / size, "chunks of \(size) bytes")
    }
  }

  @Test func theGoldenInputsReadTheSameInChunks() throws {
    let inputs = goldenInputs()
    #expect(inputs.count > 100)
    // As they are (pretty-printed files among them), then as NDJSON: each text compact on a
    // line, and the malformed inputs as they are.
    let whole = Array(inputs.map { $0 + [0x0A] }.joined())
    let lines = Array(inputs.map { compactLines($0) }.joined())
    for (input, isNDJSON) in [(whole, false), (lines, true)] {
      for arguments in [[], ["--check", "--format", "json"]] {
        let one = try run(input, arguments + ["--jobs", "1"])
        #expect(one.0.status == .rejected)
        for size in [512, 4096, 30000] {
          let many = try run(input, arguments + ["--jobs", "2"], chunkSize: size)
          #expect(many.0 == one.0, "\(arguments), chunks of \(size) bytes")
          #expect(many.written + many.fallBacks > 0)
          if isNDJSON { #expect(many.written > 0) }
        }
      }
    }
    // Each input alone, as in its golden case, with chunks small enough to split it.
    for input in inputs where input.count > 64 {
      let one = try run(input, ["--jobs", "1"])
      let many = try run(input, ["--jobs", "2"], chunkSize: 64)
      #expect(many.0 == one.0)
    }
  }

  @Test(arguments: craftedInputs.map(\.0))
  func chunkedReadingAppendsToTheStoreWhatOneReaderAppends(_ name: String) throws {
    let input = try #require(craftedInputs.first { $0.0 == name }).1
    let one = TemporaryFile()
    defer { for path in [one.path, one.path + ".lock"] { unlink(path) } }
    let byOne = try run(input, ["--store", one.path, "--jobs", "1"])
    #expect(!one.contents.isEmpty)
    for size in [64, 257, 4096] {
      let many = TemporaryFile()
      defer { for path in [many.path, many.path + ".lock"] { unlink(path) } }
      let byMany = try run(input, ["--store", many.path, "--jobs", "3"], chunkSize: size)
      #expect(byMany.0 == byOne.0, "chunks of \(size) bytes")
      #expect(many.contents == one.contents, "chunks of \(size) bytes")
      if input.count > size {
        #expect(byMany.written > 0 || byMany.fallBacks > 0, "chunks of \(size) bytes")
      }
    }
  }

  @Test func aSmallFileIsReadWithoutThreads() throws {
    let input = craftedInputs[0].1
    let parse = try run(input, ["--jobs", "2"], chunkSize: input.count)
    #expect(parse.written == 0 && parse.fallBacks == 0)
  }
}

extension Array where Element == UInt8 {
  /// Every occurrence of `old` replaced with `new`.
  fileprivate func replacing(_ old: [UInt8], with new: [UInt8]) -> [UInt8] {
    guard !old.isEmpty, count >= old.count else { return self }
    var result: [UInt8] = []
    result.reserveCapacity(count)
    var i = 0
    while i < count {
      if i + old.count <= count && self[i..<i + old.count].elementsEqual(old) {
        result += new
        i += old.count
      } else {
        result.append(self[i])
        i += 1
      }
    }
    return result
  }
}
