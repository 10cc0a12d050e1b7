// Fuzz target `token-files`: the token files that notif-responses's --tokens and --prune read
// (`TokenLine`, both forms), as any bytes and as lines whose every time is a limit number. The
// input becomes a token file; each of its tokens gets APNs's 410 with a timestamp the input
// picks (limit numbers, every way of writing one), and notif-responses runs with the file as
// --tokens, then prunes a copy of it in place.
//
// Properties:
//   (a) `TokenLine.read` never traps; a time it reads lies in notif(5)'s range;
//   (b) with --tokens the run exits 0, 1 or 2 (a line it cannot read stops the run), never 75
//       and never on a signal;
//   (c) the prune keeps or archives every line, once: the kept lines are the file's lines
//       less the archived ones, in their order, byte for byte;
//   (d) no line of a token registered after its answer's timestamp, or with a registration
//       time that cannot be read, is archived.

func fuzzTokenFiles(_ input: UnsafeRawBufferPointer) {
  let file = limitTokenFile(input)
  var parser = JSONParser()
  var registry = TokenRegistry()
  var lines: [[UInt8]] = []
  for line in file.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
    lines.append(Array(line))
    let read = Array(line).withUnsafeBytes { TokenLine.read($0, parser: &parser) }
    if case .token(_, let time?) = read {
      require(time.isWritable, "a registration time outside notif(5)'s range: \(time)")
    }
    registry.add(read)
  }
  if lines.last?.isEmpty == true { lines.removeLast() }

  // One 410 a token, with a timestamp the input picks.
  var stream = ByteStream(bytes: input)
  var answers = ""
  var goneAt: [[UInt8]: Int64?] = [:]
  for line in lines {
    let read = line.withUnsafeBytes { TokenLine.read($0, parser: &parser) }
    guard case .token(let token, _) = read, let name = String(validating: token, as: UTF8.self),
      !name.contains("\""), !name.contains("\\"), goneAt[token] == nil
    else { continue }
    let stamp = tokenTimestamps[Int(stream.next()) % tokenTimestamps.count]
    goneAt[token] = Int64(stamp)
    answers +=
      #"{"status":410,"apns-id":"a","token":"\#(name)","body":{"reason":"Unregistered","#
      + #""timestamp":\#(stamp)}}"# + "\n"
  }
  let answersPath = scratchPath(
    "answers.ndjson", holding: UnsafeRawBufferPointer(start: nil, count: 0))
  Array(answers.utf8).withUnsafeBytes { writeReplacing(answersPath, $0) }
  let tokens = file.withUnsafeBytes { scratchPath("tokens.ndjson", holding: $0) }
  let now = ["--now", "2026-11-26T10:00:00Z"]
  _ = runTool(ResponsesCommand.self, now + ["--tokens", tokens, answersPath], output: "r.out")

  // The prune, in place, of a copy.
  let pruned = file.withUnsafeBytes { scratchPath("prune.ndjson", holding: $0) }
  let archive = scratchFolder + "/prune.archive"
  unlink(archive)
  let (_, status) = runTool(
    ResponsesCommand.self, now + ["--prune", pruned, "--archive", archive, answersPath],
    output: "r.out")
  require(status != .failure, "the prune failed on a readable token file")
  // One byte order mark at the start is read past, and not written again.
  if let first = lines.first, first.starts(with: [0xEF, 0xBB, 0xBF]) {
    lines[0] = Array(first.dropFirst(3))
  }
  var kept = splitLines(readWhole(pruned))
  if let first = kept.first, first.starts(with: [0xEF, 0xBB, 0xBF]) {
    kept[0] = Array(first.dropFirst(3))
  }
  let gone = splitLines(readWhole(archive))
  var next = 0
  var archived = 0
  for line in lines {
    if next < kept.count && kept[next] == line {
      next += 1
      continue
    }
    archived += 1
    let read = line.withUnsafeBytes { TokenLine.read($0, parser: &parser) }
    guard case .token(let token, _) = read else {
      fail("a line that is no token's left the file: \(String(decoding: line, as: UTF8.self))")
    }
    require(!registry.hasUnreadableTime(token), "a token with an unreadable time was pruned")
    if let registered = registry.registeredAt(token), let stamp = goneAt[token] ?? nil {
      let registeredMilliseconds =
        registered.seconds * 1000 + Int64(registered.nanoseconds / 1_000_000)
      require(registeredMilliseconds <= stamp, "a token registered after its answer was pruned")
    }
  }
  require(next == kept.count, "the pruned file has lines the file did not have")
  require(archived == gone.count, "\(archived) lines left the file, \(gone.count) archived")
}

/// APNs's timestamps the answers carry: limit numbers, and one value written every way.
let tokenTimestamps: [String] =
  limitNumbers + [
    "1764140000000", "\"1764140000000\"", "1764140000000.0", "1.76414e12", "253402300799999",
    "253402300800000", "\"soon\"", "null",
  ]

/// The input as a token file: as it is when its first byte is even, else lines of both forms
/// with the input's bytes picking tokens and, from limit numbers and times at notif(5)'s
/// bounds, their registration times.
func limitTokenFile(_ input: UnsafeRawBufferPointer) -> [UInt8] {
  guard let first = input.first, first & 1 == 1 else { return Array(input) }
  var stream = ByteStream(bytes: UnsafeRawBufferPointer(rebasing: input.dropFirst()))
  let times =
    limitNumbers + [
      "253402300799", "253402300800", "-62135596800", "-62135596801", "\"9999-12-31T23:59:59Z\"",
      "\"0001-01-01T00:00:00Z\"", "\"2026-11-20T00:00:00Z\"", "\"1764140000\"", "1.76414e9",
    ]
  var text = ""
  for _ in 0..<(1 + Int(stream.next() % 8)) {
    let token = "tok\(stream.next() % 4)"
    let time = times[Int(stream.next()) % times.count]
    switch stream.next() % 3 {
    case 0: text += #"{"token":"\#(token)","registered_at":\#(time)}"# + "\n"
    case 1: text += "\(token) \(String(time.filter { $0 != "\"" }))\n"
    default: text += "\(token)\n"
    }
  }
  return Array(text.utf8)
}

/// The whole file at `path`; empty when there is none.
func readWhole(_ path: String) -> [UInt8] {
  let fd = open(path, O_RDONLY)
  guard fd >= 0 else { return [] }
  defer { close(fd) }
  return contents(fd, name: path)
}
