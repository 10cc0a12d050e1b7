// Fuzz target `store-recovery`: NotifSweep's recovery of an interrupted sweep, as notif-expire
// and notif-mark run it before a sweep in place: `StoreSession` takes the store's lock and
// runs `StoreRewrite.recover`. The input is what the interrupted sweep left, split at NUL bytes
// into up to four parts, laid out in a folder of its own:
//
//   STORE NUL JOURNAL NUL ARCHIVE NUL NAMES
//
// the store (`inbox.ndjson`), its journal (`inbox.ndjson.sweep`, absent without a second
// part), the archive (`archive.ndjson`) and other files of the folder, one name a line (a name
// ending in `/` is a folder; one with a NUL byte, which no file name holds, is skipped), such
// as the leftover new stores `.inbox.ndjson.PID.notif-tmp`.
// In the journal, `@T` becomes the store's device and inode (the store was replaced: the sweep
// committed), `@A` the archive's, and `@P` the archive's path; other `path` lines are kept in
// the folder, so that recovery touches nothing else.
//
// Properties:
//   (a) recovery succeeds, or fails with one SystemError whose message is one line; each
//       warning is one line (`checkMessage`); the lock is never reported held; and it fails
//       only for what it cannot remove (a leftover that is a folder), never for what a journal
//       says: a journal it cannot use is ignored and removed, else every later sweep fails;
//   (b) the store's bytes are unchanged: recovery never writes the store, so every line it
//       held is still there (records are never lost: what the archive loses was appended by
//       the interrupted sweep to a store that was not replaced, and so is still in it);
//   (c) the archive is unchanged or cut back to a prefix, of exactly the largest size the
//       journal gives it, and only when the journal does not name the store as the new one;
//   (d) after a success no journal and no leftover `.inbox.ndjson.DIGITS.notif-tmp` remains,
//       and every other file is there with its bytes; a leftover that is a folder cannot be
//       removed, and recovery then fails.

func fuzzStoreRecovery(_ input: UnsafeRawBufferPointer) {
  let folder = scratchFolder + "/sweep"
  emptyFolder(folder)
  let parts = input.split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false)
    .map(Array.init)
  let store = folder + "/inbox.ndjson"
  let journal = StoreRewrite.journalPath(store: store)
  let archive = folder + "/archive.ndjson"
  writeFile(store, parts[0])
  let archiveBefore = parts.count > 2 ? parts[2] : []
  writeFile(archive, archiveBefore)

  // Other files: leftovers to remove, files to keep.
  let reserved: Set<[UInt8]> = Set(
    ["inbox.ndjson", "inbox.ndjson.sweep", "inbox.ndjson.lock", "archive.ndjson"].map {
      Array($0.utf8)
    })
  var kept: [(path: [UInt8], bytes: [UInt8])] = []
  var leftoverFolders = 0
  let names = parts.count > 3 ? parts[3].split(separator: 0x0A).map(Array.init) : []
  for (number, line) in names.prefix(16).enumerated() {
    let isFolder = line.last == UInt8(ascii: "/")
    let name = isFolder ? Array(line.dropLast()) : line
    guard !name.isEmpty, name.count <= 200, !name.contains(UInt8(ascii: "/")), !name.contains(0),
      name != Array(".".utf8), name != Array("..".utf8), !reserved.contains(name)
    else { continue }
    let path = Array(folder.utf8) + [UInt8(ascii: "/")] + name
    let made = withCPath(path) { isFolder ? mkdir($0, 0o700) : createFile($0, "file \(number)") }
    guard made == 0 else { continue }  // the same name twice
    if isLeftover(name) {
      if isFolder { leftoverFolders += 1 }
    } else if !isFolder {
      kept.append((path, Array("file \(number)".utf8)))
    }
  }

  // The journal, with the identities the sweep would have written.
  var journalText: String? = nil
  if parts.count > 1 {
    var text = String(decoding: parts[1], as: UTF8.self)
    text = text.replacing("@T", with: identityText(store))
    text = text.replacing("@A", with: identityText(archive))
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      guard line.hasPrefix("path ") else { return String(line) }
      let target = line.dropFirst(5)
      if target == "@P" { return "path " + archive }
      return "path " + folder + "/_" + String(target).replacing("/", with: "_")
    }
    text = lines.joined(separator: "\n")
    writeFile(journal, Array(text.utf8))
    journalText = text
  }

  var warnings: [String] = []
  var succeeded = false
  var failure = ""
  do {
    let session = try StoreSession(
      store: store, wait: 0, recover: true, monotonicClock: { 0 }, waitForLastLine: {},
      warn: { warnings.append($0) })
    succeeded = session.fd >= 0
  } catch {
    switch error {
    case .held(let path): fail("the lock '\(path)' is reported held")
    case .system(let error):
      checkMessage(error.message, of: "recovery")
      failure = error.message
    }
  }
  for warning in warnings { checkMessage(warning, of: "a recovery warning") }

  require(readFile(store) == parts[0], "recovery changed the store")
  let archiveAfter = readFile(archive) ?? []
  if archiveAfter != archiveBefore {
    require(
      archiveAfter.count < archiveBefore.count && archiveBefore.starts(with: archiveAfter),
      "the archive is not a prefix of what it was")
    let lines = journalText?.split(separator: "\n", omittingEmptySubsequences: false) ?? []
    require(lines.count >= 4, "the archive was cut back without a whole journal")
    // Cut back to the largest size an entry that names the archive gives it (the journal may
    // name one file twice, as --archive and --quarantine).
    let sizes = stride(from: 2, to: lines.count - 1, by: 2).compactMap { index -> Int? in
      lines[index + 1] == "path \(archive)"
        ? lines[index].split(separator: " ").last.flatMap { Int($0) } : nil
    }
    require(sizes.max() == archiveAfter.count, "the archive was cut to \(archiveAfter.count) bytes")
    let named = lines[1].split(separator: " ").prefix(2).map { UInt64($0) }
    var status = stat()
    require(
      stat(store, &status) != 0
        || named != [UInt64(status.st_dev), UInt64(status.st_ino)] as [UInt64?],
      "the archive was cut back though the store was replaced")
  }
  require(
    succeeded == (leftoverFolders == 0),
    succeeded
      ? "recovery succeeded with a leftover that cannot be removed"
      : "recovery failed with no leftover folder: \(failure)")
  guard succeeded else { return }
  require(readFile(journal) == nil, "the journal is still there")
  for file in kept {
    require(
      withCPath(file.path) { fileBytes($0) } == file.bytes,
      "recovery removed or changed '\(String(decoding: file.path, as: UTF8.self))'")
  }
  for name in folderNames(folder) {
    require(!isLeftover(name), "the leftover '\(String(decoding: name, as: UTF8.self))' remains")
  }
}

/// Whether `name` is a leftover new store of `inbox.ndjson`: `.inbox.ndjson.DIGITS.notif-tmp`.
func isLeftover(_ name: [UInt8]) -> Bool {
  let prefix = Array(".inbox.ndjson.".utf8)
  let suffix = Array(".notif-tmp".utf8)
  guard name.count > prefix.count + suffix.count, name.starts(with: prefix),
    name.reversed().starts(with: suffix.reversed())
  else { return false }
  let middle = name[prefix.count..<(name.count - suffix.count)]
  return middle.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
}

/// `DEVICE INODE` of the file at `path`, as a journal writes it; empty when it is missing.
func identityText(_ path: String) -> String {
  var status = stat()
  guard stat(path, &status) == 0 else { return "" }
  return "\(UInt64(status.st_dev)) \(UInt64(status.st_ino))"
}

func withCPath<T>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
  (path + [0]).withUnsafeBufferPointer { buffer in
    buffer.withMemoryRebound(to: CChar.self) { chars in
      guard let base = chars.baseAddress else { fail("no path") }
      return body(base)
    }
  }
}

/// Creates the file at `path` holding `text`; returns 0, or -1 when it exists or fails.
func createFile(_ path: UnsafePointer<CChar>, _ text: String) -> Int32 {
  let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
  guard fd >= 0 else { return -1 }
  defer { close(fd) }
  let bytes = Array(text.utf8)
  return bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count ? 0 : -1
}

/// Writes `bytes` to the file at `path`, replacing it.
func writeFile(_ path: String, _ bytes: [UInt8]) {
  bytes.withUnsafeBytes { writeReplacing(path, $0) }
}

/// The bytes of the file at `path`; nil when it cannot be opened.
func readFile(_ path: String) -> [UInt8]? {
  fileBytes(path)
}

func fileBytes(_ path: UnsafePointer<CChar>) -> [UInt8]? {
  let fd = open(path, O_RDONLY)
  guard fd >= 0 else { return nil }
  defer { close(fd) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 16 * 1024)
  while true {
    let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if count <= 0 { break }
    bytes += chunk[0..<count]
  }
  return bytes
}

/// The names in `folder`, as bytes, without `.` and `..`.
func folderNames(_ folder: String) -> [[UInt8]] {
  guard let dir = opendir(folder) else { return [] }
  defer { closedir(dir) }
  var names: [[UInt8]] = []
  while let entry = readdir(dir) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
    if name != Array(".".utf8) && name != Array("..".utf8) { names.append(name) }
  }
  return names
}

/// Makes `folder` exist and be empty (its entries are files or empty folders).
func emptyFolder(_ folder: String) {
  mkdir(folder, 0o700)
  for name in folderNames(folder) {
    withCPath(Array(folder.utf8) + [UInt8(ascii: "/")] + name) { path in
      if unlink(path) != 0 { rmdir(path) }
    }
  }
}
