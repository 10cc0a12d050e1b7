import NotifJSON
import NotifModel
import NotifSweep

/// `--prune FILE`: the sweep of a token file that removes the tokens the push services said
/// are gone, in place, under the same lock, journal and atomic rewrite as notif-expire's and
/// notif-mark's (`SweepDriver`), each removed line appended to the archive.
///
/// A token file holds one token a line: a JSON object with `token` (a record of the sender's,
/// kept whole), or the token alone. Blank lines, and lines that are neither, are kept as they
/// are: a token file is the sender's, and only what is surely a pruned token leaves it.
struct TokenPrune: ~Copyable, SweepPasses {
  let tokens: Set<[UInt8]>
  let now: Timestamp
  private var parser = JSONParser()

  init(tokens: Set<[UInt8]>, now: Timestamp) {
    self.tokens = tokens
    self.now = now
  }

  typealias Input = (fd: Int32, name: String, length: Int64)

  mutating func open(_ files: [String], _ driver: inout SweepDriver) -> [Input] { [] }

  func input(store fd: Int32, name: String, length: Int64) -> Input { (fd, name, length) }

  func close(_ inputs: [Input]) {}

  mutating func sweep(_ inputs: [Input], _ driver: inout SweepDriver) throws(SystemError) {
    for input in inputs {
      try pass(input, &driver)
    }
  }

  /// Whether `line` is a token to prune.
  mutating func prunes(_ line: UnsafeRawBufferPointer) -> Bool {
    let text = LineReader.trimmed(line)
    guard !text.isEmpty, !tokens.isEmpty else { return false }
    guard text[0] == UInt8(ascii: "{") else { return tokens.contains(Array(text)) }
    guard case .complete(let end) = parser.parse(text, isFinal: true), end == text.count else {
      return false
    }
    return parser.withView(over: text) { view in
      guard let token = view.member(0, "token"), view.kind(token) == .string else { return false }
      return tokens.contains(view.stringBytes(token))
    }
  }

  /// Reads every line of the token file once: a kept line goes where kept lines go; a pruned
  /// one to the archive, as its JSON object with `removed_at` and `removed_reason` (a bare
  /// token as `{"token":...}`). Nothing is written before the first pruned line: a file where
  /// nothing is pruned is read and never written.
  private mutating func pass(_ input: Input, _ driver: inout SweepDriver) throws(SystemError) {
    var kept = ByteBuffer(capacity: 160 * 1024)
    var gone = ByteBuffer(capacity: 16 * 1024)
    var reader = LineReader(
      fd: input.fd, name: input.name, length: input.length,
      maxLineBytes: driver.options.maxRecordBytes)
    var pending = driver.awaitsFirstChange
    var prefixEnd: Int64 = 0
    while let line = try reader.next() {
      if reader.isOverlong {
        // Too long to be a token: kept as it is, part by part.
        driver.tally.kept += 1
        if pending {
          while try reader.nextPart() != nil {}
          prefixEnd = reader.bytesRead
          continue
        }
        try driver.keepOverlong(line, rest: &reader, after: &kept)
        continue
      }
      guard prunes(line) else {
        driver.tally.kept += 1
        if pending {
          prefixEnd = reader.bytesRead
        } else {
          kept.append(line)
          kept.append(UInt8(ascii: "\n"))
        }
        continue
      }
      driver.tally.remove(for: .pruned)
      if pending {
        pending = false
        let start = reader.byteOrderMarkLength
        try driver.copyPrefix(start..<max(start, prefixEnd))
      }
      var text = LineReader.trimmed(line)
      if let last = text.last, last == 0x0D {
        text = UnsafeRawBufferPointer(rebasing: text.dropLast())
      }
      if text[0] == UInt8(ascii: "{") {
        ArchiveEntry.write(
          record: text, isEmptyObject: false, removedAt: now, reason: .pruned, into: &gone)
      } else {
        var record = ByteBuffer(capacity: text.count + 16)
        record.append("{\"token\":\"")
        JSONEscapes.appendEscaped(text, into: &record)
        record.append("\"}")
        record.withUnsafeBytes {
          ArchiveEntry.write(
            record: $0, isEmptyObject: false, removedAt: now, reason: .pruned, into: &gone)
        }
      }
      if kept.count + gone.count >= 128 * 1024 {
        try driver.writeKept(kept)
        try driver.writeArchived(gone)
        kept.removeAll()
        gone.removeAll()
      }
    }
    try driver.writeKept(kept)
    try driver.writeArchived(gone)
  }
}
