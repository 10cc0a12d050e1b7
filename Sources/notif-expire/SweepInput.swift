import NotifCLI
import NotifJSON
import NotifModel

/// One input that can be read more than once: a regular file is read again from where it
/// started; anything else (a pipe, a terminal) is copied as the first pass reads it
/// (`PipeCopy`: in memory up to a bound, then in an unlinked temporary file), and read again
/// from there. The copy costs one write of what the first pass reads anyway, not a read of the
/// pipe before the first pass and another read of the copy in it.
///
/// A pipe may first be read by a pass of its own that takes only its first lines
/// (`beginPrefix`): the sweep writes those as they come, and the passes after it begin where
/// that pass stopped (`resume`), with nothing of what it took in the copy.
///
/// Passes read with read(2), not through a mapping of the file. A mapping read in place, its
/// pages mapped a batch ahead and given back behind (no copy at all), was measured on the 1.1 GB
/// of the benchmark: 1.63 CPU-seconds against 1.43, 0.94 s against 0.80 (`perf stat`, 8 runs).
/// Mapping and unmapping 4 KiB pages, and the other core's TLB flushed each time, cost more than
/// the copy they save; and a file cut short under a mapping is a SIGBUS to catch.
final class SweepInput {
  /// The name in diagnostics: the path, or `<stdin>`.
  let name: String
  /// What is read while the passes read the input itself (not its copy).
  private let fd: Int32
  /// The bytes to read from the start: a store's length when the sweep began (see
  /// `StoreSession.length`); everything for an operand.
  let length: Int64
  private let start: off_t
  /// Whether `close()` closes `fd`: an operand opened here.
  private var owned: Bool
  /// For a pipe: what the passes have read of it, kept for the passes after them; nil for a
  /// regular file.
  private let copy: PipeCopy?
  /// Whether the passes read the copy now: the pipe has been read to its end.
  private var readsCopy = false
  /// Bytes read from the input but not yet by a pass, which the next pass reads first: a
  /// pipe's first bytes, read to tell whether it is compressed (`compression()`), and the
  /// lines a prefix pass stopped at.
  private var held: [UInt8] = []
  private var heldFrom = 0
  /// The prefix pass's state (`beginPrefix`).
  private var prefix: Prefix?
  /// Where the passes begin: line 1 at offset 0, or where a prefix pass stopped.
  private(set) var resume = Position(line: 1, offset: 0)
  /// The lines of the input that the last pass to end reached, counted from line 1.
  private(set) var lineCount = 0
  /// Whether a prefix pass stopped before the input's end.
  private(set) var prefixStopped = false

  /// A place in the input: the number of a line and the offset of its first byte.
  struct Position {
    var line: Int
    var offset: Int64
  }

  /// A prefix pass under way, or one that stopped and waits for `passEnded` (then nil again).
  private enum Prefix {
    case reading(PrefixScan)
    case ended
  }

  /// What a prefix pass needs to find where it stops.
  private struct PrefixScan {
    /// A partial line longer than this ends the prefix: it is held, not handed on in parts.
    let maxLineBytes: Int
    /// Given whole lines, the offset of the first that the prefix must not take, or nil.
    let stop: (UnsafeRawBufferPointer) -> Int?
    /// The bytes of the line being read, before its line feed.
    var partial = 0
  }

  private init(name: String, fd: Int32, length: Int64, start: off_t, owned: Bool, copy: PipeCopy?) {
    self.name = name
    self.fd = fd
    self.length = length
    self.start = start
    self.owned = owned
    self.copy = copy
  }

  /// Opens `path` (`-` for standard input); one that cannot be read twice is copied as the
  /// first pass reads it (`PipeCopy`): in memory up to `memoryLimit` bytes, past that all of
  /// it in a temporary file in `temporaryDirectory`.
  ///
  /// - Throws: `SystemError` naming the input.
  static func open(
    _ path: String, temporaryDirectory: String, memoryLimit: Int
  ) throws(SystemError) -> SweepInput {
    let name = path == "-" ? "<stdin>" : path
    let fd = path == "-" ? STDIN_FILENO : systemOpen(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw SystemError(path: name, doing: "cannot open", errno: errno) }
    let owned = fd != STDIN_FILENO
    if let failure = InputFile.checkReadable(fd, name: name) {
      if owned { _ = systemClose(fd) }
      throw failure
    }
    var status = stat()
    if fstat(fd, &status) == 0 && status.st_mode & S_IFMT == S_IFREG {
      let start = lseek(fd, 0, SEEK_CUR)
      if start >= 0 {
        return SweepInput(name: name, fd: fd, length: .max, start: start, owned: owned, copy: nil)
      }
    }
    InputFile.widenPipe(fd)
    return SweepInput(
      name: name, fd: fd, length: .max, start: 0, owned: owned,
      copy: PipeCopy(temporaryDirectory: temporaryDirectory, memoryLimit: memoryLimit))
  }

  /// Wraps an open descriptor of a regular file, read from its start to `length`.
  static func file(_ fd: Int32, name: String, length: Int64 = .max) -> SweepInput {
    SweepInput(name: name, fd: fd, length: length, start: 0, owned: false, copy: nil)
  }

  /// Whether the input is read once and copied: not a regular file.
  var isPipe: Bool { copy != nil }

  /// How a pipe was kept for the passes after the first: the bytes, and whether in memory
  /// (else in the temporary file); nil for a regular file.
  var copied: (bytes: Int64, inMemory: Bool)? { copy.map { ($0.count, $0.inMemory) } }

  /// The bytes a pass reads, when they are known: a store's length, or what a regular file (or
  /// the copy of a pipe, once made) holds from where it started; nil for a pipe not yet read.
  /// What a progress line measures against.
  var byteCount: Int64? {
    if length != .max { return length }
    if let copy { return readsCopy ? copy.count : nil }
    var status = stat()
    guard fstat(fd, &status) == 0 else { return nil }
    return max(Int64(status.st_size) - Int64(start) - resume.offset, 0)
  }

  /// The compression the input starts with, if any (`Compression`), before any pass reads
  /// it: a regular file's first bytes are read where they are; a pipe's are read and kept for
  /// the first pass, as few as tell (one read for a JSON text).
  func compression() throws(SystemError) -> Compression? {
    guard copy != nil else { return InputFile.compression(ofRegularFile: fd) }
    let size = Compression.longestMagic
    let bytes = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 1)
    defer { bytes.deallocate() }
    var count = 0
    while count < size {
      let got = systemRead(fd, bytes + count, size - count)
      if got < 0 {
        if errno == EINTR { continue }
        throw SystemError(path: name, doing: "read error", errno: errno)
      }
      count += got
      if got == 0
        || !Compression.mayBeCutShort(UnsafeRawBufferPointer(start: bytes, count: count))
      {
        break
      }
    }
    let start = UnsafeRawBufferPointer(start: bytes, count: count)
    held = Array(start)
    heldFrom = 0
    return Compression(startOf: start)
  }

  /// Makes the next pass a prefix pass, on a pipe no pass has read yet: it reads the lines
  /// before the first one that `stop` names (given whole lines, it returns the offset of the
  /// first the prefix must not take, or nil), and before any line longer than `maxLineBytes`,
  /// then sees the end of the input. What it reads is not copied: the passes after it begin at
  /// the line it stopped at (`resume`).
  func beginPrefix(maxLineBytes: Int, stop: @escaping (UnsafeRawBufferPointer) -> Int?) {
    prefix = .reading(PrefixScan(maxLineBytes: maxLineBytes, stop: stop))
  }

  /// Tells the input that a pass reached its end at line `line` (the number the next line
  /// would have) and offset `offset`. After a prefix pass, that is where the passes after it
  /// begin.
  func passEnded(line: Int, offset: Int64) {
    lineCount = max(lineCount, line - 1)
    guard case .ended = prefix else { return }
    prefix = nil
    resume = Position(line: line, offset: offset)
  }

  /// Reads up to `limit` more bytes into `batch`, never past the input's length, of which
  /// `unread` bytes are left (and less after); returns how many came (0 at the end). From a
  /// pipe, what came is added to its copy too.
  func read(into batch: SweepBatch, limit: Int, unread: inout Int64) throws(SystemError) -> Int {
    if let prefix {
      guard case .reading(let scan) = prefix else { return 0 }
      return try readPrefix(into: batch, limit: limit, unread: &unread, scan)
    }
    let count = try readSource(into: batch, limit: limit, unread: &unread)
    if let copy, !readsCopy, count > 0 {
      try copy.append(
        UnsafeRawBufferPointer(start: batch.bytes + (batch.count - count), count: count))
    }
    return count
  }

  /// Reads what the pass reads next, uncopied: the held bytes, else the copy once the passes
  /// read it, else the input.
  private func readSource(
    into batch: SweepBatch, limit: Int, unread: inout Int64
  ) throws(SystemError) -> Int {
    let wanted = Int(min(Int64(limit), unread))
    guard wanted > 0 else { return 0 }
    let count: Int
    if heldFrom < held.count {
      count = min(wanted, held.count - heldFrom)
      held.withUnsafeBytes {
        batch.append(UnsafeRawBufferPointer(rebasing: $0[heldFrom..<(heldFrom + count)]))
      }
      heldFrom += count
      if heldFrom == held.count {
        held = []
        heldFrom = 0
      }
    } else if let copy, readsCopy {
      count = try copy.read(into: batch, limit: wanted)
    } else {
      count = try batch.read(from: fd, name: name, limit: wanted)
    }
    unread -= Int64(count)
    return count
  }

  /// A read of the prefix pass: the whole lines read are given to the scan's `stop`; at the
  /// first line it names, or at a partial line longer than the scan allows, what the batch
  /// holds from that line on is taken back and held for the next pass, and the pass sees the
  /// end of the input. Lines begin at the batch's start or after a line feed: the sweep hands
  /// on whole lines and keeps the partial one at the start of its next batch.
  private func readPrefix(
    into batch: SweepBatch, limit: Int, unread: inout Int64, _ scanned: PrefixScan
  ) throws(SystemError) -> Int {
    var scan = scanned
    let old = batch.count
    let got = try readSource(into: batch, limit: limit, unread: &unread)
    let end = batch.count
    let lineStart = max(0, old - scan.partial)
    func lines(_ range: Range<Int>) -> UnsafeRawBufferPointer {
      UnsafeRawBufferPointer(start: batch.bytes + range.lowerBound, count: range.count)
    }
    var stopAt: Int? = nil
    if got == 0 {
      // The input ended, perhaps inside a last line without a line feed.
      if lineStart < end, scan.stop(lines(lineStart..<end)) != nil { stopAt = lineStart }
      scan.partial = 0
    } else if let complete = Self.afterLastLineFeed(batch.bytes, old..<end) {
      if let hit = scan.stop(lines(lineStart..<complete)) { stopAt = lineStart + hit }
      scan.partial = end - complete
    } else {
      scan.partial = end - lineStart
    }
    if stopAt == nil && scan.partial > scan.maxLineBytes { stopAt = max(0, end - scan.partial) }
    guard let stopAt else {
      prefix = got == 0 ? .ended : .reading(scan)
      return got
    }
    var rest = Array(UnsafeRawBufferPointer(start: batch.bytes + stopAt, count: end - stopAt))
    rest += held[heldFrom...]
    held = rest
    heldFrom = 0
    batch.truncate(to: stopAt)
    prefix = .ended
    prefixStopped = true
    return max(0, stopAt - old)
  }

  /// The offset after the last line feed of `range` in `bytes`, or nil when it has none.
  private static func afterLastLineFeed(_ bytes: UnsafeRawPointer, _ range: Range<Int>) -> Int? {
    var at = range.upperBound
    while at > range.lowerBound {
      if bytes.load(fromByteOffset: at - 1, as: UInt8.self) == 0x0A { return at }
      at -= 1
    }
    return nil
  }

  /// Moves back to where the passes begin: for a pipe, to the start of its copy, after
  /// copying what the pass before left unread. Before the first pass, and while nothing has
  /// been copied from the pipe (a pass read it to its end: it stays there), the pipe stays.
  func rewind() throws(SystemError) {
    if let copy {
      guard readsCopy || copy.count > 0 else { return }
      if !readsCopy {
        try drain(into: copy)
        readsCopy = true
        if owned { _ = systemClose(fd) }
        owned = false
      }
      try copy.rewind()
      return
    }
    guard lseek(fd, start + off_t(resume.offset), SEEK_SET) >= 0 else {
      throw SystemError(path: name, doing: "cannot read again", errno: errno)
    }
  }

  func close() {
    copy?.close()
    if owned { _ = systemClose(fd) }
  }

  /// Copies what no pass has read, held or in the pipe, to the copy.
  private func drain(into copy: PipeCopy) throws(SystemError) {
    if heldFrom < held.count {
      let rest = Array(held[heldFrom...])
      held = []
      heldFrom = 0
      let failure = rest.withUnsafeBytes { bytes -> SystemError? in
        do throws(SystemError) { try copy.append(bytes) } catch { return error }
        return nil
      }
      if let failure { throw failure }
    }
    let size = 256 * 1024
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let count = systemRead(fd, buffer, size)
      if count < 0 {
        if errno == EINTR { continue }
        throw SystemError(path: name, doing: "read error", errno: errno)
      }
      if count == 0 { return }
      try copy.append(UnsafeRawBufferPointer(start: buffer, count: count))
    }
  }
}

/// What the passes read of a pipe, kept to be read again: in memory while it is at most
/// `memoryLimit` bytes; past that, all of it in an unlinked temporary file, made then (the
/// memory is written there and given back). A pipe that fits needs no temporary file at all.
///
/// The memory is one mapping of `memoryLimit` bytes of address space, made at the first byte;
/// its pages are taken 4 MiB ahead of the writes with one call each (`MADV_POPULATE_WRITE`),
/// not one fault per page. Nothing is moved as it grows, and memory peaks at the limit.
///
/// Memory costs more processor time than the temporary file, whose pages in the page cache
/// are filled by write(2) where fresh memory is zeroed first: a cost for each byte kept in
/// memory, not for each byte of the input. On the 153 MB of `bench/expire.sh 200000` through
/// `cat |`, notif-expire's processor time was 1.20 times the file's with no memory, 1.38 with
/// 64 MiB and 1.13 with 16 MiB (medians of 15 runs each, on a noisy machine). Huge pages
/// (`MADV_HUGEPAGE`) cost more still, and a file in memory (memfd_create(2)) more than that.
/// What memory buys is a pipe of up to 16 MiB, some 20,000 records, swept with no file written.
final class PipeCopy {
  /// The bytes notif-expire keeps in memory before the temporary file: 16 MiB.
  static let defaultMemoryLimit = 16 << 20

  private let temporaryDirectory: String
  private let memoryLimit: Int
  /// The temporary file, once made.
  private var spool: (fd: Int32, name: String)?
  /// The mapping of `memoryLimit` bytes, once made.
  private var memory: UnsafeMutableRawPointer?
  /// The bytes copied.
  private(set) var count: Int64 = 0
  /// Whether they are in memory; else in the temporary file.
  var inMemory: Bool { spool == nil }
  /// Where the next read from memory starts.
  private var readFrom = 0
  /// The bytes of memory whose pages the system has given (`populate`).
  private var populated = 0

  init(temporaryDirectory: String, memoryLimit: Int) {
    self.temporaryDirectory = temporaryDirectory
    self.memoryLimit = memoryLimit
  }

  /// Adds `bytes`; the first addition past the limit moves the copy to the temporary file, as
  /// does one for which no memory can be mapped.
  ///
  /// - Throws: `SystemError` when the temporary file cannot be made or written.
  func append(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    if inMemory && (count + Int64(bytes.count) > Int64(memoryLimit) || !map()) { try spill() }
    if let spool {
      if let failure = OutputWriter.writeAll(bytes, to: spool.fd, name: spool.name) {
        throw failure
      }
    } else if let memory {
      populate(upTo: Int(count) + bytes.count)
      (memory + Int(count)).copyMemory(from: base, byteCount: bytes.count)
    }
    count += Int64(bytes.count)
  }

  /// Reads up to `limit` bytes of the copy into `batch`, from where the last read ended.
  func read(into batch: SweepBatch, limit: Int) throws(SystemError) -> Int {
    if let spool { return try batch.read(from: spool.fd, name: spool.name, limit: limit) }
    let chunk = min(limit, Int(count) - readFrom)
    guard let memory, chunk > 0 else { return 0 }
    batch.append(UnsafeRawBufferPointer(start: memory + readFrom, count: chunk))
    readFrom += chunk
    return chunk
  }

  /// Moves back to the copy's start.
  func rewind() throws(SystemError) {
    readFrom = 0
    guard let spool else { return }
    guard lseek(spool.fd, 0, SEEK_SET) >= 0 else {
      throw SystemError(path: spool.name, doing: "cannot read again", errno: errno)
    }
  }

  func close() {
    unmap()
    if let spool { _ = systemClose(spool.fd) }
  }

  /// Maps the memory, once. Returns false when the system gives none.
  private func map() -> Bool {
    guard memory == nil else { return true }
    guard
      let base = mmap(
        nil, memoryLimit, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
        -1, 0),
      base != MAP_FAILED
    else { return false }
    memory = base
    return true
  }

  /// Has the system give the pages up to `end` ahead of the writes, 4 MiB at a time.
  private func populate(upTo end: Int) {
    #if os(Linux)
      guard let memory, end > populated else { return }
      let step = 4 << 20
      let target = min(memoryLimit, (end + step - 1) / step * step)
      // MADV_POPULATE_WRITE (Linux 5.14), which Glibc's module leaves out. Where the system
      // has no such advice, the pages fault in as they are written.
      _ = madvise(memory + populated, target - populated, 23)
      populated = target
    #endif
  }

  private func unmap() {
    if let memory { _ = munmap(memory, memoryLimit) }
    memory = nil
  }

  /// Makes the temporary file, writes what memory holds there, and gives the memory back.
  private func spill() throws(SystemError) {
    let file = try TemporaryFile.make(in: temporaryDirectory, prefix: "notif-expire")
    spool = file
    if let memory, count > 0 {
      let bytes = UnsafeRawBufferPointer(start: memory, count: Int(count))
      if let failure = OutputWriter.writeAll(bytes, to: file.fd, name: file.name) {
        throw failure
      }
    }
    unmap()
  }
}
