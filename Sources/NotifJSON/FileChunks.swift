/// A piece of a file cut after a line feed (or at the end of the file), and what a
/// worker made of it (`results`).
///
/// The reading thread (`FileChunks.read`) fills the bytes and the fields that place them in the
/// input, hands the chunk to a `WorkerPool`, and reads `results` once the pool says it is done.
/// The bytes after `count` up to `filled` belong to the next chunk: the reading thread copies
/// them there while a worker reads the first `count`.
public final class FileChunk<Results>: @unchecked Sendable {
  /// The most bytes the chunk holds.
  public let capacity: Int
  /// The chunk's bytes: `count` of them are its own.
  public let bytes: UnsafeMutableRawPointer
  /// The bytes read into `bytes`.
  var filled = 0
  /// The bytes of this chunk: up to and including its last line feed.
  public internal(set) var count = 0
  /// The input's name in diagnostics.
  public internal(set) var name = ""
  /// The line number of the first byte, which starts a line.
  public internal(set) var line = 1
  /// How many bytes of the input come before the first byte: those `FileChunks.read` was
  /// given (`initial`) and read, from where the file descriptor stood.
  public internal(set) var offset = 0
  /// The line number of the byte after the chunk: the next chunk's first line.
  public internal(set) var endLine = 1
  /// Whether the chunk starts the input, where a byte order mark is skipped.
  public internal(set) var atStreamStart = false
  /// The chunk's place among all the chunks of a run, counted from `FileChunks.read`'s
  /// `nextNumber`: numbers grow in input order, across files.
  public internal(set) var number = 0
  /// What the worker made of the chunk.
  public var results: Results
  /// The reader ended between texts (see `RecordReader.endedBetweenTexts`).
  var endedBetweenTexts = false
  /// The reader ended skipping the rest of a malformed text (`RecordReader.isSkipping`).
  var endedSkipping = false

  public init(capacity: Int, results: Results) {
    self.capacity = capacity
    self.results = results
    bytes = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
  }

  deinit {
    bytes.deallocate()
  }

  /// Calls `body` with a reader of the chunk's JSON texts, as one reader of the whole input
  /// would read them from the chunk's first line on; a worker reads the chunk so. The reader
  /// has no file: it cannot fail, and ends with the chunk.
  public func read<R>(maxRecordBytes: Int, _ body: (inout RecordReader) -> R) -> R {
    var reader = RecordReader(
      borrowing: UnsafeRawBufferPointer(start: bytes, count: count), name: name,
      maxRecordBytes: maxRecordBytes, line: line, atStreamStart: atStreamStart)
    let result = body(&reader)
    endedBetweenTexts = reader.endedBetweenTexts
    endedSkipping = reader.isSkipping
    return result
  }

  /// Whether the results are what one reader of the whole input would have made of these
  /// bytes, given that the chunk before (if any) was: true when the chunk ended between texts
  /// (or was the last), so that the next one starts as a new reader would. `nextByte` is the
  /// first byte of the next chunk, nil for the last chunk.
  func readsAsWhole(nextByte: UInt8?) -> Bool {
    guard let nextByte else { return true }
    // A reader skipping a malformed text's remains stops at a line that starts a record.
    return endedBetweenTexts
      && (!endedSkipping || nextByte == UInt8(ascii: "{") || nextByte == UInt8(ascii: "["))
  }
}

/// Reading a file in chunks that worker threads read at once, the results taken in input
/// order, so that they are what one reader would have made: the `--jobs` of notif-parse,
/// notif-group and notif-show (which reads a pipe so too: nothing is read twice).
public enum FileChunks {
  /// How `read` went: how many chunks it handed to `accept`, and whether one reader took over.
  public struct Outcome: Equatable, Sendable {
    public var accepted = 0
    public var fellBack = false
  }

  /// Reads the file `fd` (named `name`) in the chunks of `ring` (a ring of at least two
  /// chunks per worker and one more), which `workers` read while the next are filled. Each
  /// chunk whose results are what one reader would have made goes to `accept`, in input order.
  ///
  /// From the first chunk that did not end between texts (a pretty-printed text cut in two, an
  /// error at the cut), or a line longer than a chunk, or a failed read, the guess that the
  /// input is one text per line was wrong: `rest` gets one reader for the rest of the file,
  /// from that chunk's first byte, with that chunk's number, and nothing more goes to
  /// `accept`. `nextNumber` is the number of the first chunk; on return, a number above every
  /// one used, `rest`'s included.
  ///
  /// With `checksLines`, a chunk goes to the workers only if its lines read alone
  /// (`linesReadAlone`), and the workers' results are then taken as they are: every chunk
  /// handed to them goes to `accept`, and `rest` goes on from the first chunk whose lines do
  /// not read alone. A caller whose workers keep what they made of every chunk (notif-group's
  /// shards) reads a pipe so, which cannot be read again from a chunk that is not taken.
  ///
  /// With `announcesIdle`, an input whose reads can wait (a pipe, a socket) is read as it
  /// comes: before a read that would wait, the lines that have come go to the workers as a
  /// chunk of their own, every chunk goes to `accept`, and `idle` is called (to flush what was
  /// written), as a `RecordReader` that announces idle would have it; `rest`'s reader
  /// announces idle too. A regular file is read so whatever `announcesIdle` says.
  ///
  /// `initial` holds the first bytes of the input, already read (`readStart`); at most a
  /// chunk's capacity.
  ///
  /// Every chunk handed to the workers is done when this returns.
  public static func read<Results, Worker: ~Copyable, E: Error>(
    _ fd: Int32, name: String, maxRecordBytes: Int, ring: [FileChunk<Results>],
    workers: WorkerPool<FileChunk<Results>, Worker>, nextNumber: inout Int,
    initial: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0),
    checksLines: Bool = false, announcesIdle: Bool,
    accept: (FileChunk<Results>) throws(E) -> Void,
    idle: () throws(E) -> Void,
    rest: (consuming RecordReader, _ number: Int) throws(E) -> Void
  ) throws(E) -> Outcome {
    precondition(ring.count >= 2, "FileChunks.read: a ring of one chunk cannot overlap")
    precondition(initial.count <= ring[0].capacity, "FileChunks.read: initial bytes too many")
    var reading = Reading(
      fd: fd, name: name, maxRecordBytes: maxRecordBytes, ring: ring, workers: workers,
      first: nextNumber, checksLines: checksLines,
      announcesIdle: announcesIdle && readsCanWait(fd))
    defer { nextNumber = reading.first + reading.submitted + 1 }
    try reading.run(initial: initial, accept: accept, idle: idle, rest: rest)
    return reading.outcome
  }

  /// Whether `fd` is worth reading in chunks of `chunkSize` bytes, and whether it is a pipe
  /// (or a socket), whose first chunk `readStart` reads. Chunks pay for a regular file bigger
  /// than one (a smaller one would pay for starting threads) and for a pipe, which may bring
  /// more; a terminal, /dev/null or an input `fstat` cannot describe is read by one reader.
  public static func suits(_ fd: Int32, chunkSize: Int) -> (inChunks: Bool, isPipe: Bool) {
    var status = stat()
    guard fstat(fd, &status) == 0 else { return (false, false) }
    let kind = status.st_mode & S_IFMT
    if kind == S_IFIFO || kind == S_IFSOCK { return (true, true) }
    return (kind == S_IFREG && Int(status.st_size) > chunkSize, false)
  }

  /// Reads the start of an input whose reads can wait (a pipe), before any thread is started
  /// for it: up to `capacity` bytes into `bytes`, until the input ends, or (with
  /// `stopsAtPause`) pauses once some bytes have come, or a read fails (the reader that goes on
  /// reads again, and reports it). `idle` is called before a wait while nothing has come.
  /// Returns the bytes read and whether the input ended: one that ends within a chunk (a
  /// payload through a pipe) is then read by one reader, with no thread started.
  public static func readStart<E: Error>(
    _ fd: Int32, into bytes: UnsafeMutableRawPointer, capacity: Int, stopsAtPause: Bool = true,
    idle: () throws(E) -> Void
  ) throws(E) -> (count: Int, ended: Bool) {
    var count = 0
    var mayPause = stopsAtPause
    var pause = InputPause()
    while count < capacity {
      if mayPause && pause.wouldWait(fd) {
        if count > 0 { return (count, false) }
        try idle()
        mayPause = false
      }
      let got = systemRead(fd, bytes + count, capacity - count)
      if got > 0 {
        count += got
        mayPause = stopsAtPause
      } else if got == 0 {
        return (count, true)
      } else if errno != EINTR {
        return (count, false)
      }
    }
    return (count, false)
  }

  /// `read` with no idle announced: for an input read to its end before anything is written.
  public static func read<Results, Worker: ~Copyable, E: Error>(
    _ fd: Int32, name: String, maxRecordBytes: Int, ring: [FileChunk<Results>],
    workers: WorkerPool<FileChunk<Results>, Worker>, nextNumber: inout Int,
    initial: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0),
    checksLines: Bool = false,
    accept: (FileChunk<Results>) throws(E) -> Void,
    rest: (consuming RecordReader, _ number: Int) throws(E) -> Void
  ) throws(E) -> Outcome {
    try read(
      fd, name: name, maxRecordBytes: maxRecordBytes, ring: ring, workers: workers,
      nextNumber: &nextNumber, initial: initial,
      checksLines: checksLines, announcesIdle: false, accept: accept,
      idle: { () throws(E) in }, rest: rest)
  }

  /// The state of one `read`: chunk k of the file is `ring[k % ring.count]`.
  private struct Reading<Results, Worker: ~Copyable> {
    let fd: Int32
    let name: String
    let maxRecordBytes: Int
    let ring: [FileChunk<Results>]
    let workers: WorkerPool<FileChunk<Results>, Worker>
    let first: Int
    /// Whether a chunk's lines are checked before it goes to the workers (see `read`).
    let checksLines: Bool
    /// Whether a read that would wait is announced (see `read`): only where reads can wait.
    let announcesIdle: Bool
    var submitted = 0  // chunks handed to the workers
    var accepted = 0  // chunks whose results went to `accept`
    var line = 1  // the line number after the last chunk submitted
    var offset = 0  // the bytes of the input in the chunks submitted
    /// Whether the reader of the last chunk taken ended skipping a malformed text's remains.
    var takenEndedSkipping = false
    var outcome = Outcome()

    func chunk(_ index: Int) -> FileChunk<Results> { ring[index % ring.count] }

    mutating func run<E: Error>(
      initial: UnsafeRawBufferPointer,
      accept: (FileChunk<Results>) throws(E) -> Void, idle: () throws(E) -> Void,
      rest: (consuming RecordReader, Int) throws(E) -> Void
    ) throws(E) {
      // Whatever happens, no worker is left holding a chunk: the next file reuses them.
      defer {
        for index in accepted..<submitted { workers.wait(for: chunk(index)) }
      }
      var eof = false
      // Whether the next read is checked first for a wait: not again after an idle until a
      // read has brought bytes, so a quiet pipe costs one check per wait.
      var mayPause = announcesIdle
      var pause = InputPause()
      while !eof {
        if submitted - accepted == ring.count {
          guard try acceptOrHandOver(accepted, accept: accept, rest: rest) else { return }
        }
        let current = chunk(submitted)
        current.filled = 0
        if submitted > 0 {  // the bytes after the last chunk's last line feed come first
          let previous = chunk(submitted - 1)
          current.filled = previous.filled - previous.count
          current.bytes.copyMemory(
            from: previous.bytes + previous.count, byteCount: current.filled)
        } else if let start = initial.baseAddress {
          current.filled = initial.count
          current.bytes.copyMemory(from: start, byteCount: initial.count)
        }
        var failed = false
        var paused = false
        while current.filled < current.capacity {
          if mayPause && pause.wouldWait(fd) {
            mayPause = false
            if FileChunks.lastLineFeed(current.bytes, current.filled) != nil {
              paused = true  // the lines that came go out as a chunk, then the idle
              break
            }
            // No whole line since the last chunk: what the workers have goes out, then the
            // read waits.
            guard try takeAll(then: current, 0, accept: accept, rest: rest) else { return }
            try idle()
            continue
          }
          let count = systemRead(
            fd, current.bytes + current.filled, current.capacity - current.filled)
          if count > 0 {
            current.filled += count
            mayPause = announcesIdle
          } else if count == 0 {
            eof = true
            break
          } else if errno != EINTR {
            failed = true  // the reader that takes over reads again, and reports the error
            break
          }
        }
        if eof {
          current.count = current.filled
        } else if !failed, let last = FileChunks.lastLineFeed(current.bytes, current.filled) {
          current.count = last + 1
        } else {
          // A line longer than a chunk, or a read error: take what the workers have, then
          // one reader goes on from this chunk's bytes.
          while accepted < submitted {
            let next: UInt8? =
              accepted + 1 < submitted
              ? chunk(accepted + 1).bytes.load(as: UInt8.self)
              : current.filled > 0 ? current.bytes.load(as: UInt8.self) : nil
            guard try take(accepted, nextByte: next, accept: accept) else { break }
          }
          return try fallBack(from: accepted, then: current, 0, rest: rest)
        }
        if current.count == 0 { break }
        if checksLines
          && !FileChunks.linesReadAlone(current.bytes, current.count, atStreamStart: submitted == 0)
        {
          // A text may go on past its line, or the reader of the chunk before may be skipping
          // past the first: the workers' chunks are taken, then one reader goes on from here.
          guard try takeAll(then: current, 0, accept: accept, rest: rest) else { return }
          return try fallBack(from: submitted, then: current, 0, rest: rest)
        }
        current.name = name
        current.line = line
        current.offset = offset
        offset += current.count
        current.atStreamStart = submitted == 0
        current.number = first + submitted
        line += FileChunks.lineFeeds(
          in: UnsafeRawBufferPointer(start: current.bytes, count: current.count))
        current.endLine = line
        workers.submit(current)
        submitted += 1
        if paused {
          guard try takeAll(then: current, current.count, accept: accept, rest: rest) else {
            return
          }
          try idle()
        }
      }
      while accepted < submitted {
        guard try acceptOrHandOver(accepted, accept: accept, rest: rest) else { return }
      }
    }

    /// Takes every chunk submitted (`take`), while more of the input may follow the bytes of
    /// `tail` from `tailStart`; returns true. Where a chunk's results are not what one reader
    /// would have made, one reader goes on from that chunk (`fallBack`), and it returns false.
    /// A chunk followed by nothing yet is whole only if it ended between texts, not skipping
    /// a malformed one's remains (the line to come may continue them).
    mutating func takeAll<E: Error>(
      then tail: FileChunk<Results>, _ tailStart: Int,
      accept: (FileChunk<Results>) throws(E) -> Void,
      rest: (consuming RecordReader, Int) throws(E) -> Void
    ) throws(E) -> Bool {
      while accepted < submitted {
        let next: UInt8 =
          accepted + 1 < submitted
          ? chunk(accepted + 1).bytes.load(as: UInt8.self)
          : tail.filled > tailStart
            ? tail.bytes.load(fromByteOffset: tailStart, as: UInt8.self)
            : 0  // not come yet: no record's start
        guard try take(accepted, nextByte: next, accept: accept) else {
          try fallBack(from: accepted, then: tail, tailStart, rest: rest)
          return false
        }
      }
      return true
    }

    /// Takes the results of chunk `index` (`take`); where they are not what one reader would
    /// have made, one reader goes on from there to the end of the input (`fallBack`, after
    /// the last chunk submitted), and it returns false.
    mutating func acceptOrHandOver<E: Error>(
      _ index: Int, accept: (FileChunk<Results>) throws(E) -> Void,
      rest: (consuming RecordReader, Int) throws(E) -> Void
    ) throws(E) -> Bool {
      let next = index + 1 < submitted ? chunk(index + 1).bytes.load(as: UInt8.self) : nil
      if try take(index, nextByte: next, accept: accept) { return true }
      let last = chunk(submitted - 1)
      try fallBack(from: index, then: last, last.count, rest: rest)
      return false
    }

    /// Waits for chunk `index` and hands it to `accept` if its results are what one reader
    /// would have made (see `FileChunk.readsAsWhole`); returns whether it did.
    mutating func take<E: Error>(
      _ index: Int, nextByte: UInt8?, accept: (FileChunk<Results>) throws(E) -> Void
    ) throws(E) -> Bool {
      let done = chunk(index)
      workers.wait(for: done)
      guard checksLines || done.readsAsWhole(nextByte: nextByte) else { return false }
      takenEndedSkipping = done.endedSkipping
      accepted += 1
      outcome.accepted += 1
      try accept(done)
      return true
    }

    /// Hands `rest` one reader for the rest of the file, from the start of chunk `from` (the
    /// first not taken): the bytes of chunks `from..<submitted`, then those of `tail` from
    /// `tailStart`, then the rest of the file. It goes on skipping where the chunk before
    /// ended skipping a malformed text's remains, as one reader of the whole would.
    mutating func fallBack<E: Error>(
      from start: Int, then tail: FileChunk<Results>, _ tailStart: Int,
      rest: (consuming RecordReader, Int) throws(E) -> Void
    ) throws(E) {
      outcome.fellBack = true
      var size = tail.filled - tailStart
      for index in start..<submitted {
        workers.wait(for: chunk(index))
        size += chunk(index).count
      }
      let pending = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: 16)
      defer { pending.deallocate() }
      var at = pending
      for index in start..<submitted {
        at.copyMemory(from: chunk(index).bytes, byteCount: chunk(index).count)
        at += chunk(index).count
      }
      at.copyMemory(from: tail.bytes + tailStart, byteCount: tail.filled - tailStart)
      let reader = RecordReader(
        fd: fd, name: name, maxRecordBytes: maxRecordBytes,
        pending: UnsafeRawBufferPointer(start: pending, count: size),
        line: start < submitted ? chunk(start).line : line, atStreamStart: start == 0,
        announcesIdle: announcesIdle, skipping: start > 0 && takenEndedSkipping)
      // Chunks from `start` on were never taken: their number is the reader's.
      accepted = submitted
      try rest(reader, first + start)
    }
  }

  /// Whether the whole lines in the first `count` bytes at `bytes` read alone: as one reader
  /// of the whole input reads them, whatever comes before and after. So they do when each line
  /// that is not blank starts with `{` or `[` (after a byte order mark at the start of the
  /// stream) and ends with `}` or `]` (space, tab and CR after it aside), and the texts of the
  /// last such line end on it (or a malformed one is found malformed there).
  ///
  /// A valid text that went on past its line would leave the line ending with what must be
  /// continued (`{`, `[`, `,`, `:`, a key or a value inside a container), or, ended by a `}` or
  /// `]` that does not close it, the next line starting with what continues it (`,`, `}` or
  /// `]`). A text left open at the end of a line is found so by one reader at the next line,
  /// inside the lines; only at the last does the reader of these lines alone see their end
  /// instead, hence the parse of it. A malformed text is skipped to the next line that starts
  /// with `{` or `[`, past blank lines: within the lines, or to the first line that is not
  /// blank after them, which a new reader starts at too. Lines that start with space are not
  /// taken, as a reader skipping a malformed text passes them by where a new one reads them.
  ///
  /// - Complexity: O(count).
  static func linesReadAlone(_ bytes: UnsafeRawPointer, _ count: Int, atStreamStart: Bool)
    -> Bool
  {
    func at(_ offset: Int) -> UInt8 { bytes.load(fromByteOffset: offset, as: UInt8.self) }
    var start = 0
    if atStreamStart && count >= 3 && at(0) == 0xEF && at(1) == 0xBB && at(2) == 0xBF {
      start = 3
    }
    var lastLine: Int? = nil  // where the last line that is not blank starts
    while start < count {
      let end =
        memchr(bytes + start, 0x0A, count - start).map { bytes.distance(to: $0) } ?? count
      var last = end
      while last > start && LineReader.isSpace(at(last - 1)) { last -= 1 }
      if last > start {
        let first = at(start)
        let final = at(last - 1)
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
          final == UInt8(ascii: "}") || final == UInt8(ascii: "]")
        else { return false }
        lastLine = start
      }
      start = end + 1
    }
    guard var offset = lastLine else { return true }
    var parser = JSONParser()
    while offset < count {
      if LineReader.isSpace(at(offset)) {
        offset += 1
        continue
      }
      switch parser.parse(
        UnsafeRawBufferPointer(start: bytes + offset, count: count - offset), isFinal: false)
      {
      case .complete(let end): offset += end
      case .failed: return true  // found malformed on its line; the rest of it is skipped
      case .incomplete: return false  // open at the end of the line
      }
    }
    return true
  }

  /// The offset of the last line feed in the first `count` bytes at `bytes`.
  static func lastLineFeed(_ bytes: UnsafeRawPointer, _ count: Int) -> Int? {
    var at = count - 1
    while at >= 0 {
      if bytes.load(fromByteOffset: at, as: UInt8.self) == 0x0A { return at }
      at -= 1
    }
    return nil
  }

  /// The number of line feeds in `bytes`.
  static func lineFeeds(in bytes: UnsafeRawBufferPointer) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    var count = 0
    var from = base
    let end = base + bytes.count
    while from < end, let hit = memchr(from, 0x0A, from.distance(to: end)) {
      count += 1
      from = UnsafeRawPointer(hit) + 1
    }
    return count
  }
}
