import NotifJSON

/// Replaces a store file safely, moving removed records to an archive (and lines that are not
/// records to a quarantine file) first: the machinery that notif-expire and notif-mark share
/// for `--store`.
///
/// The caller holds the store's `StoreLock` from before `recover` until after `commit` or
/// `abandon`. The steps, and what holds if the process dies between any two of them:
///
/// 1. At the first change, `start` creates the new store as `.NAME.PID.notif-tmp` in the
///    store's directory (so the rename stays on one file system), with the store's mode (and,
///    for root, owner). Dying here leaves a temporary file that the next `recover` removes.
///    A sweep that changes nothing never calls `start`: the store is not rewritten.
/// 2. With an archive or a quarantine file, `start` then writes the journal `STORE.sweep` (the
///    temporary file's identity, and each appended file's identity and size before this sweep)
///    and syncs it and the directory, before a byte goes to either; then it copies the
///    unchanged bytes before the first change into the new store.
/// 3. The caller writes kept lines with `writeKept`, removed ones with `writeArchived` and
///    quarantined ones with `writeQuarantined`.
/// 4. `commit` flushes and `fsync`s the archive and the quarantine file; takes into the new
///    store the whole lines appended to the store past what the sweep read (by a process that
///    skipped the lock); `fsync`s the new store, renames it over the store and syncs the
///    directory, then removes the journal. Last, it drains the old store: what a process that
///    skipped the lock appends to it goes to the end of the new store until no process has the
///    old one open for writing any more (at most `drainPolls` looks), so that an append that
///    opened the store before the rename and writes after it is not lost with the old file.
///
/// Every record is in the store or the archive at every instant: the archive is durable before
/// the store loses anything. Between the archive's sync and the rename a record can be in both;
/// the journal says so, and the next `recover` (run under the lock before the next sweep) cuts
/// the archive back to its size before the interrupted sweep when the store was not replaced,
/// so after the next sweep every record is in exactly one of them. The quarantine file is
/// journaled and taken back the same way, so each line ends in exactly one of store, archive
/// and quarantine. Both must be regular files (a pipe or a device could not be cut back) and
/// files of their own (`SweepOptions.checkFiles`; `start` checks again that neither is the
/// store).
///
/// The journal: the line `notif-sweep-journal 1`, the temporary file's `DEVICE INODE`, then for
/// each appended file a line `DEVICE INODE SIZE-BEFORE` and a line `path PATH`.
public struct StoreRewrite: ~Copyable {
  /// The store's path as given.
  public let storePath: String
  /// The new store's temporary path.
  public let tempPath: String
  /// The archive's path, if there is one.
  public let archivePath: String?
  /// What messages call the archive: `archive`, or what the tool appends there instead
  /// (notif-digest's `output file` of digests).
  public let archiveName: String
  /// The quarantine file's path, if there is one.
  public let quarantinePath: String?
  private let journalPath: String
  private let directory: String
  private let storeStatus: stat
  /// The bytes of the store the sweep read (`StoreSession.length`): what is past them when the
  /// store is replaced was appended without the lock, and is taken in as it is.
  private let sweptLength: Int64
  private var storeFD: Int32 = -1
  private var tempFD: Int32 = -1
  private var archiveFD: Int32 = -1
  private var archiveSizeBefore: Int64 = 0
  private var quarantineFD: Int32 = -1
  private var quarantineSizeBefore: Int64 = 0
  private var journaled = false
  /// Whether `start` was called: the new store exists.
  public private(set) var isStarted = false
  private var kept: OutputWriter
  private var archived: OutputWriter
  private var keptPending = ByteBuffer(capacity: 160 * 1024)
  private var archivePending = ByteBuffer(capacity: 160 * 1024)
  /// Whether anything was written to the archive.
  public private(set) var archivedAny = false
  private var quarantined: OutputWriter
  private var quarantinePending = ByteBuffer(capacity: 16 * 1024)
  /// Whether anything was written to the quarantine file.
  public private(set) var quarantinedAny = false
  /// What `commit` took in of what was appended to the store without the lock during the
  /// sweep: lines (counting a last one without its line feed) and bytes.
  public private(set) var takenIn = (lines: 0, bytes: Int64(0))
  /// Whether a process still had the old store open for writing when `commit` stopped
  /// draining it: what that process writes from then on is lost with the old file.
  public private(set) var heldOpenAfterReplacing = false
  /// How many lines appended to the old store without the lock were still unfinished when
  /// `commit` stopped draining it, and were taken in with a line feed added (at most one).
  public private(set) var unfinishedLines = 0

  /// How many times `commit` looks at the old store at most, 1 ms apart (about a second in
  /// all): a process that keeps it open (`daemon >> store`) is not waited for. Counts, not a
  /// clock, bound the drain: nothing the clock does can make it longer.
  static let drainPolls = 1000
  /// Where it cannot be told whether a process has the old store open for writing (see
  /// `openForWriting`), how many looks in a row must find the old store unchanged before
  /// `commit` stops draining it (about 50 ms): longer than an appender takes from opening the
  /// store to writing (a shell's `>>` runs a program in between).
  static let drainQuietPolls = 50
  /// Called between the rename and the drain: tests append to the old store there.
  var afterReplacing: (() -> Void)?

  static let tempSuffix = ".notif-tmp"
  static let journalMagic = "notif-sweep-journal 1"

  /// The directory that holds `path`, and its last component.
  static func split(_ path: String) -> (directory: String, name: String) {
    FileIdentity.split(path)
  }

  /// The journal of a store: `STORE.sweep`.
  public static func journalPath(store: String) -> String { store + ".sweep" }

  /// Finishes or undoes what an interrupted sweep of `store` left, and removes its leftover
  /// temporary files; call it under the store's lock, before reading the store.
  ///
  /// - Returns: warnings for the user (one line each, lowercase), such as an archive that
  ///   changed since the interrupted sweep and so could not be cut back.
  /// - Throws: `SystemError` when the archive cannot be cut back or a leftover not removed.
  public static func recover(store: String) throws(SystemError) -> [String] {
    var warnings: [String] = []
    let journal = journalPath(store: store)
    let (directory, name) = split(store)
    if let text = readSmallFile(journal) {
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      var storeStatus = stat()
      if lines.count >= 4, lines[0] == journalMagic, let temp = identity(lines[1]) {
        let replaced =
          stat(store, &storeStatus) == 0 && UInt64(storeStatus.st_dev) == temp.device
          && UInt64(storeStatus.st_ino) == temp.inode
        // One pair of lines per appended file: the archive, the quarantine file.
        var appended: [(identity: (device: UInt64, inode: UInt64), size: Int64, path: String)] = []
        var index = 2
        while !replaced, index + 1 < lines.count, let file = identity(lines[index]),
          let size = Int64(lines[index].split(separator: " ").last ?? ""), size >= 0,
          lines[index + 1].hasPrefix("path ")
        {
          // A file named twice (--archive and --quarantine the same) is cut back once, and
          // never below the largest size an entry gives it: what was there before the sweep.
          if let seen = appended.firstIndex(where: { $0.identity == file }) {
            appended[seen].size = max(appended[seen].size, size)
          } else {
            appended.append((file, size, String(lines[index + 1].dropFirst(5))))
          }
          index += 2
        }
        // The store was not replaced: take back what the sweep appended.
        for file in appended {
          if let warning = try takeBack(file.path, file.identity, size: file.size, store: store) {
            warnings.append(warning)
          }
        }
      }
      if unlink(journal) != 0 && errno != ENOENT {
        throw SystemError(path: journal, doing: "cannot remove", errno: errno)
      }
    }
    // Leftover new stores of interrupted sweeps: only a holder of the lock makes them.
    if let dir = opendir(directory) {
      defer { closedir(dir) }
      var leftovers: [String] = []
      while let entry = readdir(dir) {
        let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if isTemporaryName(entryName, of: name) { leftovers.append(directory + "/" + entryName) }
      }
      for path in leftovers where unlink(path) != 0 && errno != ENOENT {
        throw SystemError(
          path: path, doing: "cannot remove a leftover temporary file", errno: errno)
      }
    }
    return warnings
  }

  /// Whether `entry` is the name of a new version of the store named `store` in their
  /// directory (`.NAME.PID.notif-tmp`), which recovery removes as a leftover.
  static func isTemporaryName(_ entry: String, of store: String) -> Bool {
    let prefix = "." + store + "."
    guard entry.hasPrefix(prefix) && entry.hasSuffix(tempSuffix) else { return false }
    let middle = entry.dropFirst(prefix.count).dropLast(tempSuffix.count)
    return !middle.isEmpty && middle.allSatisfy { $0.isASCII && $0.isNumber }
  }

  /// Whether the file at `path` (its links followed) is named as a new version of `store`
  /// is, in the store's directory: a file that recovery would remove.
  public static func isTemporaryFile(_ path: String, of store: String) -> Bool {
    let (directory, name) = split(FileIdentity.followingLinks(path) ?? path)
    let (storeDirectory, storeName) = split(store)
    guard isTemporaryName(name, of: storeName) else { return false }
    return FileIdentity(path: directory) == FileIdentity(path: storeDirectory)
  }

  /// Cuts the file at `path` back to `size` if it is still the file `identity` names and no
  /// shorter; else returns a warning.
  private static func takeBack(
    _ path: String, _ identity: (device: UInt64, inode: UInt64), size: Int64, store: String
  ) throws(SystemError) -> String? {
    let fd = open(path, O_WRONLY | O_CLOEXEC)
    defer { if fd >= 0 { close(fd) } }
    var status = stat()
    guard fd >= 0, fstat(fd, &status) == 0, UInt64(status.st_dev) == identity.device,
      UInt64(status.st_ino) == identity.inode, Int64(status.st_size) >= size
    else {
      return "'\(path)' changed since an interrupted sweep of '\(store)': "
        + "its last entries may also still be in the store"
    }
    if Int64(status.st_size) > size {
      guard ftruncate(fd, off_t(size)) == 0, fsync(fd) == 0 else {
        throw SystemError(
          path: path, doing: "cannot take back an interrupted sweep's entries", errno: errno)
      }
    }
    return nil
  }

  /// Prepares a new version of `store`, whose current status is `storeStatus` and of which the
  /// sweep reads `sweptLength` bytes, moving removed records to `archive` and lines that are
  /// not records to `quarantine`, if given. Nothing is created until `start`.
  public init(
    store: String, storeStatus: stat, sweptLength: Int64 = .max, archive: String?,
    archiveName: String = "archive", quarantine: String? = nil, pid: Int32
  ) {
    self.archiveName = archiveName
    storePath = store
    self.sweptLength = sweptLength
    archivePath = archive
    quarantinePath = quarantine
    journalPath = Self.journalPath(store: store)
    let (directory, name) = Self.split(store)
    self.directory = directory
    self.storeStatus = storeStatus
    tempPath = directory + "/." + name + ".\(pid)" + Self.tempSuffix
    kept = OutputWriter(fd: -1, name: tempPath, bufferSize: 1)
    archived = OutputWriter(fd: -1, name: archive ?? "", bufferSize: 1)
    quarantined = OutputWriter(fd: -1, name: quarantine ?? "", bufferSize: 1)
  }

  /// Creates the new store (with the store's mode and, for root, owner) and copies `prefix`,
  /// the store's bytes before the first change, from `storeFD` into it; with an archive, opens
  /// it for appending (creating it, mode 0666 less the umask) and writes the journal.
  ///
  /// - Throws: `SystemError` naming the file that could not be created or written.
  public mutating func start(copying prefix: Range<Int64>, from storeFD: Int32)
    throws(SystemError)
  {
    precondition(!isStarted)
    self.storeFD = storeFD
    let tempFD = open(tempPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard tempFD >= 0 else {
      throw SystemError(path: tempPath, doing: "cannot create the new store", errno: errno)
    }
    self.tempFD = tempFD
    isStarted = true
    if getuid() == 0 {
      _ = fchown(tempFD, storeStatus.st_uid, storeStatus.st_gid)
    }
    guard fchmod(tempFD, storeStatus.st_mode & 0o7777) == 0 else {
      throw SystemError(path: tempPath, doing: "cannot set the mode", errno: errno)
    }
    kept = OutputWriter(fd: tempFD, name: tempPath, bufferSize: 1)
    var tempStatus = stat()
    guard fstat(tempFD, &tempStatus) == 0 else {
      throw SystemError(path: tempPath, doing: "cannot create the new store", errno: errno)
    }
    var journal = "\(Self.journalMagic)\n\(UInt64(tempStatus.st_dev)) \(UInt64(tempStatus.st_ino))"
    // The archive and the quarantine file: opened the same way, each with its journal lines.
    for (path, isArchive) in [(archivePath, true), (quarantinePath, false)] {
      guard let path else { continue }
      let doing = isArchive ? "cannot open the \(archiveName)" : "cannot open the quarantine file"
      let (fd, size, entry) = try Self.openAppended(path, doing: doing, store: storeStatus)
      if isArchive {
        (archiveFD, archiveSizeBefore) = (fd, size)
        archived = OutputWriter(fd: fd, name: path, bufferSize: 1)
      } else {
        (quarantineFD, quarantineSizeBefore) = (fd, size)
        quarantined = OutputWriter(fd: fd, name: path, bufferSize: 1)
      }
      journal += entry
    }
    if journal.contains("\npath ") {
      if let failure = Self.writeDurably(journal, to: journalPath, directory: directory) {
        throw failure
      }
      journaled = true
    }
    try copy(prefix, from: storeFD)
  }

  /// Opens `path` for appending (creating it, mode 0666 less the umask); returns its
  /// descriptor, its size, and its journal lines.
  ///
  /// - Throws: `SystemError` when it cannot be opened, or is not a regular file (which could
  ///   not be cut back), or is the store itself (the options are checked before the sweep;
  ///   this holds against a file swapped in since).
  static func openAppended(_ path: String, doing: String, store: stat? = nil)
    throws(SystemError) -> (fd: Int32, size: Int64, journal: String)
  {
    let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0o666)
    var status = stat()
    guard fd >= 0, fstat(fd, &status) == 0 else {
      let code = errno
      if fd >= 0 { close(fd) }
      throw SystemError(path: path, doing: doing, errno: code)
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      close(fd)
      throw SystemError(path: path, message: "\(doing): not a regular file")
    }
    if let store, store.st_dev == status.st_dev && store.st_ino == status.st_ino {
      close(fd)
      throw SystemError(path: path, message: "\(doing): it is the store")
    }
    let size = Int64(status.st_size)
    return (fd, size, "\n\(UInt64(status.st_dev)) \(UInt64(status.st_ino)) \(size)\npath \(path)")
  }

  private mutating func copy(_ range: Range<Int64>, from fd: Int32) throws(SystemError) {
    let size = 256 * 1024
    let chunk = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
    defer { chunk.deallocate() }
    var offset = range.lowerBound
    while offset < range.upperBound {
      let count = Int(min(range.upperBound - offset, Int64(size)))
      try Self.readExactly(fd, into: chunk, count: count, at: offset, storePath)
      try writeKept(UnsafeRawBufferPointer(start: chunk, count: count), newline: false)
      offset += Int64(count)
    }
  }

  /// Queues bytes for the new store, and a newline if `newline`; a run longer than the queue
  /// holds (the parts of a line longer than `--max-record-bytes`) is written as it is, after
  /// what is queued, not copied.
  public mutating func writeKept(_ line: UnsafeRawBufferPointer, newline: Bool = true)
    throws(SystemError)
  {
    if line.count >= 128 * 1024 {
      try flushKept()
      do {
        try kept.write(line)
      } catch {
        throw SystemError(path: storePath, message: "cannot write the new store: \(error.message)")
      }
      if newline { keptPending.append(UInt8(ascii: "\n")) }
      return
    }
    keptPending.append(line)
    if newline { keptPending.append(UInt8(ascii: "\n")) }
    if keptPending.count >= 128 * 1024 { try flushKept() }
  }

  /// Queues bytes (whole lines with their newlines) for the new store.
  public mutating func writeKept(_ bytes: ByteBuffer) throws(SystemError) {
    keptPending.append(bytes)
    if keptPending.count >= 128 * 1024 { try flushKept() }
  }

  /// Queues archive lines (with their newlines); without an archive they are dropped.
  public mutating func writeArchived(_ bytes: ByteBuffer) throws(SystemError) {
    guard archivePath != nil else { return }
    archivePending.append(bytes)
    archivedAny = true
    if archivePending.count >= 128 * 1024 { try flushArchive() }
  }

  /// Queues quarantine lines (with their newlines); without a quarantine file they are dropped.
  public mutating func writeQuarantined(_ bytes: ByteBuffer) throws(SystemError) {
    guard quarantinePath != nil else { return }
    quarantinePending.append(bytes)
    quarantinedAny = true
    if quarantinePending.count >= 128 * 1024 { try flushQuarantine() }
  }

  private mutating func flushQuarantine() throws(SystemError) {
    guard quarantinePath != nil else { return }
    try quarantined.write(quarantinePending)
    quarantinePending.removeAll()
  }

  private mutating func flushKept() throws(SystemError) {
    do {
      try kept.write(keptPending)
    } catch {
      throw SystemError(path: storePath, message: "cannot write the new store: \(error.message)")
    }
    keptPending.removeAll()
  }

  private mutating func flushArchive() throws(SystemError) {
    guard archivePath != nil else { return }
    try archived.write(archivePending)
    archivePending.removeAll()
  }

  /// Makes the archive durable, then replaces the store with the new version.
  ///
  /// On failure nothing is replaced: call `abandon()`.
  public mutating func commit() throws(SystemError) {
    precondition(isStarted)
    if let archivePath {
      try flushArchive()
      try archived.flush()
      if archivedAny && fsync(archiveFD) != 0 {
        throw SystemError(path: archivePath, doing: "cannot sync the \(archiveName)", errno: errno)
      }
    }
    if let quarantinePath {
      try flushQuarantine()
      try quarantined.flush()
      if quarantinedAny && fsync(quarantineFD) != 0 {
        throw SystemError(
          path: quarantinePath, doing: "cannot sync the quarantine file", errno: errno)
      }
    }
    let takenUpTo = try takeInAppended()
    try flushKept()
    do {
      try kept.flush()
    } catch {
      throw SystemError(path: storePath, message: "cannot write the new store: \(error.message)")
    }
    guard fsync(tempFD) == 0 else {
      throw SystemError(path: storePath, doing: "cannot sync the new store", errno: errno)
    }
    guard rename(tempPath, storePath) == 0 else {
      throw SystemError(path: storePath, doing: "cannot replace the store", errno: errno)
    }
    Self.syncDirectory(directory)
    if journaled {
      unlink(journalPath)
      journaled = false
    }
    afterReplacing?()
    // The store is replaced: a failure from here on is reported, and the sweep stays done.
    defer {
      close(tempFD)
      if archiveFD >= 0 { close(archiveFD) }
      if quarantineFD >= 0 { close(quarantineFD) }
      isStarted = false
    }
    try drainOldStore(from: takenUpTo)
  }

  // MARK: - Appends that skipped the lock

  /// Before the rename: copies into the new store the whole lines appended to the store past
  /// what the sweep read; returns the offset in the old store up to which they are taken in.
  private mutating func takeInAppended() throws(SystemError) -> Int64 {
    let size = try Self.size(storeFD, storePath)
    guard size > sweptLength, sweptLength != .max,
      let end = Self.endOfLastLine(storeFD, in: sweptLength..<size)
    else { return min(sweptLength, size) }
    let bytes = try Self.readBytes(sweptLength..<end, of: storeFD, storePath)
    bytes.withUnsafeBytes { keptPending.append($0) }
    noteTakenIn(bytes)
    return end
  }

  /// After the rename: appends to the new store, which appenders that skip the lock now open,
  /// what is appended to the old one from `offset` on, whole lines in one write each, until no
  /// process has the old store open for writing (it is unlinked: none can open it again), or,
  /// where that cannot be told, until it has been unchanged for `drainQuietPolls` looks; at
  /// most `drainPolls` looks.
  ///
  /// Lines go into the new store only where it ends with a line feed: an appender that skips
  /// the lock and writes a line in more than one `write(2)` may be half-way through one there,
  /// and a line written then would be spliced into it (the looks wait for it, at most
  /// `lineEndPolls` in all). A last line still unfinished when the drain ends is taken in with
  /// a line feed added (`unfinishedLines`): a line of its own that the next sweep reports, never
  /// glued to the next writer's line.
  private mutating func drainOldStore(from offset: Int64) throws(SystemError) {
    guard sweptLength != .max else { return }
    let flags = fcntl(tempFD, F_GETFL)
    guard flags >= 0, fcntl(tempFD, F_SETFL, flags | O_APPEND) == 0 else {
      throw SystemError(path: storePath, doing: "cannot append to the new store", errno: errno)
    }
    var polls = 0
    var unchanged = 0
    var done = offset
    var seen = offset
    var wrote = false
    var lineEndPolls = 0
    while true {
      let writing = Self.openForWriting(storeFD)
      // Read after the answer: every write before it is in the size.
      let size = try Self.size(storeFD, storePath)
      polls += 1
      if size != seen {
        seen = size
        unchanged = 0
      } else {
        unchanged += 1
      }
      let finished =
        polls >= Self.drainPolls || writing == false
        || (writing == nil && unchanged >= Self.drainQuietPolls)
      heldOpenAfterReplacing = finished && writing == true
      let end = finished ? size : Self.endOfLastLine(storeFD, in: done..<size) ?? done
      if end > done {
        var bytes = try Self.readBytes(done..<end, of: storeFD, storePath)
        noteTakenIn(bytes)
        if bytes.last != 0x0A {
          bytes.append(0x0A)
          unfinishedLines += 1
        }
        // Alone with the new store (a write lease: no other process has it open, and one that
        // opens it now waits), nobody is half-way through a line there. Where the lease is
        // not granted, the looks wait for the store to end with a line feed instead, the last
        // one right before the write.
        var alone = false
        var leases = true
        while lineEndPolls < Self.lineEndPolls {
          if leases {
            alone = Self.takeWriteLease(tempFD)
            if alone { break }
            leases = errno == EAGAIN || errno == EBUSY  // else leases do not work here
          }
          if !leases && Self.endsWithLineFeed(tempFD) { break }
          lineEndPolls += 1
          usleep(1_000)
        }
        let failure = bytes.withUnsafeBytes {
          OutputWriter.writeAll($0, to: tempFD, name: storePath)
        }
        if alone { Self.releaseLease(tempFD) }
        if let failure { throw failure }
        done = end
        wrote = true
      }
      if finished { break }
      usleep(1_000)
    }
    if wrote && fsync(tempFD) != 0 {
      throw SystemError(path: storePath, doing: "cannot sync the store", errno: errno)
    }
  }

  /// How many times, 1 ms apart, the drain looks at most in all for the new store to end with
  /// a line feed before it appends to it (about a fifth of a second).
  static let lineEndPolls = 200

  /// Whether the file open at `fd` is empty or ends with a line feed (or cannot be read: then
  /// nothing is waited for).
  static func endsWithLineFeed(_ fd: Int32) -> Bool {
    var status = stat()
    guard fstat(fd, &status) == 0, status.st_size > 0 else { return true }
    return StoreSession.lastByte(fd, Int64(status.st_size)).map { $0 == 0x0A } ?? true
  }

  /// Counts `bytes`, appended to the old store, as taken in.
  private mutating func noteTakenIn(_ bytes: [UInt8]) {
    var lines = 0
    for byte in bytes where byte == 0x0A { lines += 1 }
    if bytes.last != 0x0A { lines += 1 }
    takenIn.lines += lines
    takenIn.bytes += Int64(bytes.count)
  }

  /// Whether another process has the file open at `fd` (open for reading only) open for
  /// writing; nil where that cannot be told.
  ///
  /// On Linux a read lease is granted only on a file no process has open for writing
  /// (fcntl(2), `F_SETLEASE`); it is released at once. It needs the file's owner (or
  /// `CAP_LEASE`) and a file system with leases; elsewhere the answer is nil.
  static func openForWriting(_ fd: Int32) -> Bool? {
    #if os(Linux)
      if fcntl(fd, setLease, Int32(F_RDLCK)) == 0 {
        _ = fcntl(fd, setLease, Int32(F_UNLCK))
        return false
      }
      return errno == EAGAIN || errno == EBUSY ? true : nil
    #else
      return nil
    #endif
  }

  /// Takes a write lease on the file open at `fd` (fcntl(2), `F_SETLEASE`): granted only when
  /// no other process has the file open; while it is held, another process's `open(2)` of the
  /// file waits. Release it with `releaseLease` right after the write it guards. False where it
  /// is not granted: `errno` is `EAGAIN` when another process has the file open, another
  /// value where leases do not work (the caller neither owns the file nor has `CAP_LEASE`, or
  /// the file system has none). The signal that would tell of a waiting opener (`SIGIO`, whose
  /// default action ends the process) is ignored.
  static func takeWriteLease(_ fd: Int32) -> Bool {
    #if os(Linux)
      signal(SIGIO, SIG_IGN)
      return fcntl(fd, setLease, Int32(F_WRLCK)) == 0
    #else
      return false
    #endif
  }

  /// Releases the lease `takeWriteLease` took.
  static func releaseLease(_ fd: Int32) {
    #if os(Linux)
      _ = fcntl(fd, setLease, Int32(F_UNLCK))
    #endif
  }

  #if os(Linux)
    /// `F_SETLEASE`, which Glibc's module does not export.
    static let setLease: Int32 = 1024
  #endif

  /// The size of the file open at `fd`.
  static func size(_ fd: Int32, _ path: String) throws(SystemError) -> Int64 {
    var status = stat()
    guard fstat(fd, &status) == 0 else {
      throw SystemError(path: path, doing: "read error", errno: errno)
    }
    return Int64(status.st_size)
  }

  /// Reads exactly `count` bytes of the file open at `fd`, from `offset`, into `buffer`: the
  /// one loop over `pread(2)` of the store's readers here.
  ///
  /// - Throws: `SystemError` naming `path` for a failed read, or for one that ends early (the
  ///   store got shorter).
  static func readExactly(
    _ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64,
    _ path: String
  ) throws(SystemError) {
    var done = 0
    while done < count {
      let got = pread(fd, buffer + done, count - done, off_t(offset) + off_t(done))
      if got < 0 {
        if errno == EINTR { continue }
        throw SystemError(path: path, doing: "read error", errno: errno)
      }
      guard got > 0 else {
        throw SystemError(path: path, message: "read error: the store got shorter")
      }
      done += got
    }
  }

  /// The bytes `range` of the file open at `fd`.
  static func readBytes(_ range: Range<Int64>, of fd: Int32, _ path: String) throws(SystemError)
    -> [UInt8]
  {
    var bytes = [UInt8](repeating: 0, count: Int(range.count))
    var failure: SystemError?
    bytes.withUnsafeMutableBytes { raw in
      guard let base = raw.baseAddress else { return }
      do throws(SystemError) {
        try readExactly(fd, into: base, count: raw.count, at: range.lowerBound, path)
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    return bytes
  }

  /// The offset just past the last line feed among the bytes `range` of the file open at
  /// `fd`; nil when there is none there (or they cannot be read).
  static func endOfLastLine(_ fd: Int32, in range: Range<Int64>) -> Int64? {
    let chunk = 64 * 1024
    var bytes = [UInt8](repeating: 0, count: chunk)
    var end = range.upperBound
    while end > range.lowerBound {
      let start = max(range.lowerBound, end - Int64(chunk))
      let count = Int(end - start)
      let read = bytes.withUnsafeMutableBytes { raw in
        guard let base = raw.baseAddress else { return false }
        return (try? readExactly(fd, into: base, count: count, at: start, "")) != nil
      }
      guard read else { return nil }
      if let last = bytes[0..<count].lastIndex(of: 0x0A) { return start + Int64(last) + 1 }
      end = start
    }
    return nil
  }

  /// Leaves the store as it was: removes the new version and takes back what was written to
  /// the archive. Where the archive cannot be cut back the journal stays, for `recover`.
  public mutating func abandon() {
    guard isStarted else { return }
    isStarted = false
    close(tempFD)
    unlink(tempPath)
    // Where an appended file cannot be cut back the journal stays, for `recover`.
    let archiveBack = Self.cutBack(archiveFD, to: archiveSizeBefore)
    let quarantineBack = Self.cutBack(quarantineFD, to: quarantineSizeBefore)
    if journaled && archiveBack && quarantineBack { unlink(journalPath) }
  }

  /// Cuts an appended file (if open) back to its size before the sweep, syncs it and closes
  /// it; returns false when it could not be cut back.
  private static func cutBack(_ fd: Int32, to size: Int64) -> Bool {
    guard fd >= 0 else { return true }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
      Int64(status.st_size) > size
    else { return true }
    return ftruncate(fd, off_t(size)) == 0 && fsync(fd) == 0
  }

  // MARK: - Files

  static func identity(_ line: String) -> (device: UInt64, inode: UInt64)? {
    let parts = line.split(separator: " ")
    guard parts.count >= 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else {
      return nil
    }
    return (device, inode)
  }

  static func readSmallFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while bytes.count < 65536 {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += chunk[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Writes a small file, syncs it and its directory; returns the failure, if any.
  static func writeDurably(_ text: String, to path: String, directory: String) -> SystemError? {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
    guard fd >= 0 else { return SystemError(path: path, doing: "cannot create", errno: errno) }
    var writer = OutputWriter(fd: fd, name: path)
    do {
      try writer.write(text)
      try writer.flush()
    } catch {
      close(fd)
      unlink(path)
      return error
    }
    guard fsync(fd) == 0 else {
      let code = errno
      close(fd)
      unlink(path)
      return SystemError(path: path, doing: "cannot sync", errno: code)
    }
    close(fd)
    syncDirectory(directory)
    return nil
  }

  static func syncDirectory(_ directory: String) {
    let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if fd >= 0 {
      fsync(fd)
      close(fd)
    }
  }
}
