// Fuzz target `sweep-lines`: notif-mark and notif-expire on lines of any bytes and any length,
// as a filter and in place with `--quarantine`. The input is the store; its last byte picks
// `--max-record-bytes` (2 to 257 bytes, so that many lines are over it and are read in parts)
// and the batch size of both sweeps (16 to 271 bytes, so that a batch holds a few lines).
//
// Properties:
//   (a) notif-mark with a selector that matches no record (`--read --before` the earliest time
//       a record may have) writes every line of the input as it is, each with a line feed (the last one gets one,
//       a byte order mark at the start is dropped), and exits 0 or 1;
//   (b) in place with `--quarantine` (on the input with a line feed at its end, if it had none:
//       a sweep waits a tenth of a second for a last line to end), the same notif-mark leaves in the store and moves to the
//       quarantine file exactly the input's lines: the store's lines and the lines the
//       quarantine entries hold (`text`, or `base64` for a line that is not UTF-8 or is longer
//       than the limit), put back by their line numbers, are the input's lines; it exits 0;
//   (c) notif-mark --read --all writes the same bytes, with the same status, in those batches
//       as in one batch of them all;
//   (d) notif-expire under a policy that keeps everything it can (no rule removes by age)
//       writes a subsequence of the input's lines with every line longer than the limit in it,
//       and in place with `--quarantine` and an archive, store, archive and quarantine file
//       together hold one line for each of the input's;
//   (e) an input that starts as a compressed stream does (`Compression`: gzip, zstd, xz or
//       bzip2's magic number) is one `Compressed` error instead: each sweep exits 2, writes
//       nothing, and leaves the store as it is, quarantining nothing;
//   (f) notif-expire reading the input from a pipe (filled in pieces of 1 to 64 bytes, the
//       first byte picks the size) writes the bytes it writes from the file, with the same
//       status: its first lines swept as they come (the policy has no `keep`), the rest kept
//       in memory up to the last byte's value, then in a temporary file.

func fuzzSweepLines(_ input: UnsafeRawBufferPointer) {
  let flags = Int(input.last ?? 0)
  let limit = 2 + flags
  let batchSize = 16 + flags
  let lines = linesAfterMark(input)
  let store = sweepFolder + "/sweep-store.ndjson"
  writeFile(store, Array(input))
  let maxBytes = ["--max-record-bytes", "\(limit)"]
  let compressed = Compression(startOf: input) != nil
  let refused: ExitStatus = compressed ? .failure : .success

  // (a) notif-mark as a filter changes nothing.
  let mark =
    ["--read", "--before", "0001-01-01T00:00:00Z", "--now", "2026-11-22T09:00:00Z"] + maxBytes
  let (filtered, markStatus) = markRun(mark + [store], batchSize: batchSize)
  if compressed {
    require(markStatus == .failure && filtered.isEmpty, "notif-mark read a compressed input")
  } else {
    require(markStatus != .failure, "notif-mark exits 2 on a readable file")
    require(
      splitLines(filtered) == lines,
      "notif-mark wrote other lines than it read, --max-record-bytes \(limit)")
  }

  // (b) notif-mark in place: every line in the store or in the quarantine file.
  let whole = input.last == 0x0A || input.isEmpty ? Array(input) : Array(input) + [0x0A]
  // Its lines: those of the input, but for a file that is only a byte order mark, which has
  // one empty line once the line feed is added.
  let wholeLines = linesAfterMark(whole)
  writeFile(store, whole)
  let quarantine = sweepFolder + "/sweep-quarantine.ndjson"
  writeFile(quarantine, [])
  let (_, inPlace) = markRun(
    mark + ["--store", store, "--quarantine", quarantine], batchSize: batchSize)
  require(inPlace == refused, "notif-mark --store --quarantine exits \(inPlace)")
  var kept = splitLines(readFile(store) ?? [])
  // A store where nothing changed is not rewritten, and keeps its byte order mark.
  if kept.first?.starts(with: [0xEF, 0xBB, 0xBF]) == true { kept[0].removeFirst(3) }
  let moved = quarantinedLines(readFile(quarantine) ?? [])
  require(
    merge(kept, moved, count: wholeLines.count) == wholeLines,
    "notif-mark's store and quarantine file do not hold the input's lines, limit \(limit)")

  // (c) notif-mark changing every record writes the same in batches as in one.
  writeFile(store, Array(input))
  let read = ["--read", "--all", "--now", "2026-11-22T09:00:00Z"] + maxBytes + [store]
  let (inBatches, batchedStatus) = markRun(read, batchSize: batchSize)
  let (inOne, oneStatus) = markRun(read, batchSize: MarkRun.batchSize)
  require(
    inBatches == inOne && batchedStatus == oneStatus,
    "notif-mark --read --all writes otherwise in batches of \(batchSize) bytes")

  // (d) notif-expire keeps what it cannot remove, and loses nothing in place.
  writeFile(store, Array(input))
  let policy = sweepFolder + "/sweep-policy.json"
  writeFile(policy, Array(#"{"default": {"ttl": "100000d"}}"#.utf8))
  let expire = ["-p", policy, "--now", "2026-11-22T09:00:00Z"] + maxBytes
  let (expired, expireStatus) = expireRun(expire + [store], batchSize: batchSize)
  if compressed {
    require(expireStatus == .failure && expired.isEmpty, "notif-expire read a compressed input")
  } else {
    require(expireStatus != .failure, "notif-expire exits 2 on a readable file")
    let out = splitLines(expired)
    require(isSubsequence(out, of: lines), "notif-expire wrote a line it did not read")
    for line in lines where line.count > limit {
      require(out.contains(line), "notif-expire dropped a line longer than the limit")
    }
  }
  // (f) from a pipe, the same.
  let (piped, pipedStatus) = throughPipe(Array(input), pieceSize: 1 + Int(input.first ?? 0) % 64) {
    name in
    sweepRun(ExpireCommand.self, expire + [name]) { configuration in
      configuration.batchSize = batchSize
      configuration.pipeMemoryLimit = flags
    }
  }
  require(
    piped == expired && pipedStatus == expireStatus,
    "notif-expire wrote otherwise from a pipe, memory for \(flags) bytes")
  let archive = sweepFolder + "/sweep-archive.ndjson"
  writeFile(archive, [])
  writeFile(quarantine, [])
  writeFile(store, whole)
  let (_, swept) = expireRun(
    expire + ["--store", store, "--archive", archive, "--quarantine", quarantine],
    batchSize: batchSize)
  require(swept == refused, "notif-expire --store --quarantine exits \(swept)")
  let held =
    splitLines(readFile(store) ?? []).count + splitLines(readFile(archive) ?? []).count
    + splitLines(readFile(quarantine) ?? []).count
  require(
    held == wholeLines.count, "notif-expire in place holds \(held) lines of \(wholeLines.count)")
}

/// A folder in memory (`/dev/shm`) where there is one: a sweep in place syncs the store, the
/// archive and the folder, which on a disk costs most of a run.
let sweepFolder: String = {
  var path = Array("/dev/shm/notif-fuzz-XXXXXX".utf8CString)
  let made = path.withUnsafeMutableBufferPointer { buffer in
    buffer.baseAddress.flatMap { mkdtemp($0) } != nil
  }
  guard made else { return scratchFolder }
  return String(decoding: path.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
}()

/// The lines of `bytes` after a byte order mark at its start, which the sweeps skip: a file
/// that is only the mark has none.
func linesAfterMark(_ bytes: some Collection<UInt8>) -> [[UInt8]] {
  let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
  return bytes.starts(with: mark) ? splitLines(bytes.dropFirst(3)) : splitLines(bytes)
}

/// The lines of `bytes`, without their line feeds (a last line without one too).
func splitLines(_ bytes: some Collection<UInt8>) -> [[UInt8]] {
  var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
  if lines.last?.isEmpty == true { lines.removeLast() }
  return lines
}

/// The lines the quarantine entries in `bytes` hold, by their line numbers.
func quarantinedLines(_ bytes: [UInt8]) -> [Int: [UInt8]] {
  var moved: [Int: [UInt8]] = [:]
  var parser = JSONParser()
  for entry in splitLines(bytes) {
    entry.withUnsafeBytes { raw in
      guard case .complete = parser.parse(raw, isFinal: true) else {
        fail("a quarantine entry is not JSON: \(text(raw))")
      }
      parser.withView(over: raw) { view in
        var number = -1
        var line: [UInt8]? = nil
        view.forEachMember(of: 0) { key, value in
          switch view.string(key) {
          case "line": number = Int(view.integer(value) ?? -1)
          case "text": line = Array(view.string(value).utf8)
          case "base64": line = decodeBase64(Array(view.rawString(value)))
          default: break
          }
        }
        guard number > 0, let line else { fail("a quarantine entry without its line") }
        moved[number] = line
      }
    }
  }
  return moved
}

/// `kept` with the lines of `moved` put back at their numbers: the input again.
func merge(_ kept: [[UInt8]], _ moved: [Int: [UInt8]], count: Int) -> [[UInt8]] {
  var lines: [[UInt8]] = []
  var rest = kept[...]
  for number in 1...max(count, 1) {
    if let line = moved[number] {
      lines.append(line)
    } else if let line = rest.popFirst() {
      lines.append(line)
    }
  }
  return lines + rest
}

func isSubsequence(_ part: [[UInt8]], of whole: [[UInt8]]) -> Bool {
  var rest = whole[...]
  for line in part {
    guard let found = rest.firstIndex(of: line) else { return false }
    rest = rest[(found + 1)...]
  }
  return true
}

/// RFC 4648 base64, padded, as `QuarantineEntry` writes it.
func decodeBase64(_ text: [UInt8]) -> [UInt8] {
  let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
  var bytes: [UInt8] = []
  var group: UInt32 = 0
  var bits = 0
  for character in text where character != UInt8(ascii: "=") {
    guard let value = alphabet.firstIndex(of: character) else { fail("not base64") }
    group = group << 6 | UInt32(value)
    bits += 6
    if bits >= 8 {
      bits -= 8
      bytes.append(UInt8(truncatingIfNeeded: group >> UInt32(bits)))
    }
  }
  return bytes
}

/// Runs a sweep on `arguments` with its configuration changed by `configure` (a batch size);
/// its standard output and status.
func sweepRun<Tool: ToolCommand>(
  _ tool: Tool.Type, _ arguments: [String], configure: (inout Tool.Configuration) -> Void
) -> (stdout: [UInt8], status: ExitStatus) {
  let environment = ToolEnvironment(arguments: arguments)
  let name = Tool.tool.name
  var configuration: Tool.Configuration
  do {
    let scanned = try OptionScanner.scan(arguments, Tool.options)
    configuration = try Tool.configure(scanned, environment: environment)
  } catch {
    fail("\(name) \(arguments): \(error)")
  }
  configure(&configuration)
  let path = scratchFolder + "/sweep.out"
  let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
  require(fd >= 0, "cannot create \(path): errno \(errno)")
  defer { close(fd) }
  var stdout = OutputWriter(fd: fd, name: "<stdout>")
  var stderr = OutputWriter(fd: devNull, name: "<stderr>")
  let status = Tool.run(configuration, environment: environment, stdout: &stdout, stderr: &stderr)
  try? stdout.flush()
  require([ExitStatus.success, .rejected, .failure].contains(status), "\(name) exits \(status)")
  return (contents(fd, name: path), status)
}

/// Runs notif-expire on `arguments` with batches of `batchSize` bytes.
func expireRun(_ arguments: [String], batchSize: Int) -> (stdout: [UInt8], status: ExitStatus) {
  sweepRun(ExpireCommand.self, arguments) { $0.batchSize = batchSize }
}

/// Runs notif-mark on `arguments` with batches of `batchSize` bytes.
func markRun(_ arguments: [String], batchSize: Int) -> (stdout: [UInt8], status: ExitStatus) {
  sweepRun(MarkCommand.self, arguments) { $0.batchSize = batchSize }
}
