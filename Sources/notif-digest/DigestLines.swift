import NotifJSON
import NotifListing
import NotifModel
import NotifSweep

/// What digesting needs of one record, found where it was parsed: all that is the record's
/// alone, so that the digester (which keeps every key's open digests) does only the rest. The
/// byte runs are in the bytes of the batch that holds it (`DigestBatch.bytes`).
struct DigestFacts {
  var createdAt: Timestamp
  /// Marked `digested_at`: it counts for quiet periods only.
  var digested: Bool
  /// `read_at` is null or missing.
  var unread: Bool
  /// The `key` object, compact, its values canonical (`KeyValue`): what the key is compared by.
  var key: Range<Int>
  /// The rest only for a record not digested yet.
  var id: Range<Int>
  var category: Range<Int>?
  var actor: Range<Int>?
  /// The record, compact: what `items` lists.
  var item: Range<Int>
  /// The hash of `id` that the digest's `digest_id` adds up (`DigestID.member`).
  var memberHash: UInt128
}

/// One line of an input, as `DigestLineFiller` found it.
struct DigestLine {
  /// The line's number in its input.
  var number: Int
  var kind: Kind

  enum Kind {
    /// A record to digest (or, marked, to count for quiet periods).
    case record(DigestFacts)
    /// A record the device does not list: left out (`--all-pushes` keeps it).
    case unlisted(Unlisted, digested: Bool)
    /// Not a record, or a record that cannot be digested.
    case rejected(code: String, message: String, column: Int)
    /// A line longer than `--max-record-bytes`.
    case overlong
    /// The first line of an input that is compressed: nothing more of it is read.
    case compressed(Compression)
  }
}

/// A run of lines of one input, read and parsed ahead of the digester (`ReadAhead`).
final class DigestBatch: @unchecked Sendable {
  var lines: [DigestLine] = []
  /// The byte runs of the lines' facts.
  var bytes = ByteBuffer(capacity: DigestLineFiller.batchBytes + 64 * 1024)
  /// Whether the input paused after these lines: the moment to write out what is ready.
  var paused = false
  /// The read error that ended the input after these lines.
  var error: SystemError? = nil
  /// The bytes of the input read, and the number of its last line, after these lines.
  var bytesRead: Int64 = 0
  var lineNumber = 0

  func reset() {
    lines.removeAll(keepingCapacity: true)
    bytes.removeAll()
    // A batch holds at most one record past `batchBytes`; after a long one, the room goes back.
    if bytes.capacity > 4 * DigestLineFiller.batchBytes {
      bytes = ByteBuffer(capacity: DigestLineFiller.batchBytes + 64 * 1024)
    }
    paused = false
    error = nil
  }

  /// The bytes of `range`, valid while the batch is not filled again.
  func slice(_ range: Range<Int>) -> [UInt8] {
    bytes.withUnsafeBytes { Array($0[range]) }
  }
}

/// Reads the lines of one input and finds each record's `DigestFacts`: the half of
/// notif-digest's work that one record decides alone (reading, parsing, checking, building
/// the key), done on a thread of its own while the digester does the other half.
struct DigestLineFiller: ~Copyable, BatchFiller {
  /// The arena bytes after which a batch is handed over.
  static let batchBytes = 512 * 1024

  private var reader: LineReader
  private var parser = RecordLineParser()
  private let options: DigestOptions
  /// The descriptor the reader reads, closed at the end when it is a duplicate.
  private let fd: Int32
  private let ownsDescriptor: Bool
  /// `{"app":`, `,"thread_id":` ...: each path's member start in the `key` object.
  private let keyStarts: [[UInt8]]
  /// The input paused, and nothing was read since: the next pause is waited out.
  private var pausedAlready = false

  /// A filler of the lines of `fd`, read through a duplicate of it when one can be had (so
  /// that the reading thread's descriptor stays open until it ends).
  init(
    fd: Int32, name: String, length: Int64, announcesIdle: Bool, options: DigestOptions,
    sweep: SweepOptions
  ) {
    let copy = dup(fd)
    self.fd = copy >= 0 ? copy : fd
    ownsDescriptor = copy >= 0
    reader = LineReader(
      fd: self.fd, name: name, announcesIdle: announcesIdle, length: length,
      maxLineBytes: sweep.maxRecordBytes)
    self.options = options
    keyStarts = options.key.enumerated().map { position, path in
      var start = ByteBuffer(capacity: 32)
      start.append(position == 0 ? "{" : ",")
      JSONEscapes.writeString(path.text, into: &start)
      start.append(":")
      return start.bytes
    }
  }

  deinit {
    if ownsDescriptor { close(fd) }
  }

  /// Whether the filler reads a duplicate of the descriptor, which a thread may read alone.
  var mayReadAhead: Bool { ownsDescriptor }

  /// Thrown out of the reader's wait hook: the input pauses, the batch is handed over now.
  private static let pause = SystemError(path: "", message: "the input pauses")

  mutating func fill(_ batch: DigestBatch) -> Bool {
    batch.reset()
    defer { (batch.bytesRead, batch.lineNumber) = (reader.bytesRead, reader.lineNumber) }
    while batch.bytes.count < Self.batchBytes && batch.lines.count < 4096 {
      let next: UnsafeRawBufferPointer?
      let already = pausedAlready
      do {
        next = try reader.next(whenIdle: { () throws(SystemError) in
          if !already { throw Self.pause }
        })
      } catch {
        return paused(batch, error)
      }
      guard let line = next else { return false }
      pausedAlready = false
      // A compressed pipe (a file's start was looked at when it was opened), as notif-mark
      // refuses one: one line for it, and none of it is read further.
      if reader.lineNumber == 1, let first = line.first, Compression.mayStart(with: first),
        let compression = Compression(startOf: line)
      {
        batch.lines.append(DigestLine(number: 1, kind: .compressed(compression)))
        return false
      }
      if reader.isOverlong {
        batch.lines.append(DigestLine(number: reader.lineNumber, kind: .overlong))
        do {
          while try reader.nextPart(whenIdle: { () throws(SystemError) in throw Self.pause })
            != nil
          {}
        } catch {
          // The rest of the line is skipped by the next call, as `next()` does.
          return paused(batch, error)
        }
        continue
      }
      switch parser.parse(line) {
      case .blank:
        continue
      case .failed(let error):
        batch.lines.append(
          DigestLine(
            number: reader.lineNumber,
            kind: .rejected(
              code: error.code.rawValue, message: error.message,
              column: RecordLineParser.column(line, error.offset))))
      case .record:
        let record = parser.record
        let kind: DigestLine.Kind
        do throws(RecordProblem) {
          kind = try facts(record, into: &batch.bytes)
        } catch {
          kind = .rejected(
            code: error.code, message: error.message,
            column: RecordLineParser.column(line, record.textOffset + error.offset))
        }
        batch.lines.append(DigestLine(number: reader.lineNumber, kind: kind))
      }
    }
    return true
  }

  /// Ends `batch` at a pause (more lines follow) or a read error (the input ends there).
  private mutating func paused(_ batch: DigestBatch, _ error: SystemError) -> Bool {
    if error == Self.pause {
      pausedAlready = true
      batch.paused = true
      return true
    }
    batch.error = error
    return false
  }

  /// What digesting needs of `record`, its byte runs appended to `bytes`.
  ///
  /// - Throws: `RecordProblem` for a record that cannot be digested.
  private func facts(_ record: RecordView, into bytes: inout ByteBuffer) throws(RecordProblem)
    -> DigestLine.Kind
  {
    let view = record.json
    func problem(_ message: String, _ index: Int?) -> RecordProblem {
      RecordProblem(
        code: "BadRecord", message: message, offset: index.map { Int(view.tokens[$0].start) } ?? 0)
    }
    /// Appends the string at `index`, unescaped, and returns where it is.
    func text(_ index: Int) -> Range<Int> {
      let start = bytes.count
      if view.tokens[index].flag {
        bytes.append(utf8: view.string(index))
      } else {
        bytes.append(view.rawString(index))
      }
      return start..<bytes.count
    }
    guard case .time(let createdAt) = record.time(.createdAt) else {
      throw problem(
        "'created_at' is missing or not an RFC 3339 time such as 2026-11-22T09:05:00Z",
        record.index(.createdAt))
    }
    var digested = false
    switch record.time(.digestedAt) {
    case .absent, .null: break
    case .time: digested = true
    case .invalid(let index):
      throw problem("'digested_at' is not null or an RFC 3339 time", index)
    }
    var id = 0..<0
    var category: Range<Int>? = nil
    if !digested {
      guard let index = record.index(.id), view.kind(index) == .string else {
        throw problem(
          "'id' is missing or not a string: a digest names its records by id", record.index(.id))
      }
      id = text(index)
      if let index = record.index(.category) {
        switch view.kind(index) {
        case .string: category = text(index)
        case .null: break
        default:
          throw problem("'category' is \(view.kind(index).phrase), not a string or null", index)
        }
      }
    }
    // Every record is put to the rule, so that one is rejected whichever tool reads it.
    var listing = ListingFields()
    for field in ListingFields.fields {
      if let index = record.index(field) { listing.set(field, index) }
    }
    let reason: Unlisted?
    do throws(RecordProblem) {
      reason = try DeviceListing.unlisted(view, listing)
    } catch {
      throw RecordProblem(code: error.code, message: error.message, offset: error.offset)
    }
    if let reason, !options.allPushes { return .unlisted(reason, digested: digested) }
    let keyStart = bytes.count
    for (position, path) in options.key.enumerated() {
      keyStarts[position].withUnsafeBytes { bytes.append($0) }
      if let index = path.find(in: record) {
        KeyValue.write(view, index, into: &bytes)
      } else {
        bytes.append("null")
      }
    }
    bytes.append("}")
    let key = keyStart..<bytes.count
    var facts = DigestFacts(
      createdAt: createdAt, digested: digested, unread: record.isNull(.readAt), key: key,
      id: id, category: category, actor: nil, item: 0..<0, memberHash: 0)
    if digested { return .record(facts) }
    if let index = options.actor.find(in: record), view.kind(index) == .string,
      view.rawString(index).count > 0
    {
      facts.actor = text(index)
    }
    let itemStart = bytes.count
    // A record notif-parse wrote is compact and canonical already: its bytes are copied.
    if record.isCompact {
      bytes.append(view.bytes)
    } else {
      JSONWriter.writeCompact(view, 0, into: &bytes)
    }
    facts.item = itemStart..<bytes.count
    facts.memberHash = bytes.withUnsafeBytes {
      DigestID.member(UnsafeRawBufferPointer(rebasing: $0[id]))
    }
    return .record(facts)
  }
}
