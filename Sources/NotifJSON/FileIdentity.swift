/// Which file a path names, whatever the spelling: `./inbox.ndjson`, `inbox.ndjson`, a
/// symbolic link to it and a hard link of it are one file.
///
/// A file that exists is its device and inode (after following symbolic links). A file that
/// does not exist yet is the entry that creating it would make: the device and inode of its
/// directory, and its name there (after following a dangling symbolic link to where `open`
/// with `O_CREAT` would create the file). The tools compare the files of one run with it, so
/// that a store, its archive, its quarantine file, its journal and its lock are never one
/// file under two names.
public enum FileIdentity: Hashable, Sendable {
  /// A file that exists: its device and inode, and whether it is a regular file.
  case file(device: UInt64, inode: UInt64, isRegular: Bool)
  /// A file that does not exist yet: its directory's device and inode, and its name there.
  case entry(directory: UInt64, directoryInode: UInt64, name: [UInt8])

  public static func == (a: FileIdentity, b: FileIdentity) -> Bool {
    switch (a, b) {
    case (.file(let d1, let i1, _), .file(let d2, let i2, _)): return d1 == d2 && i1 == i2
    case (.entry(let d1, let i1, let n1), .entry(let d2, let i2, let n2)):
      return d1 == d2 && i1 == i2 && n1 == n2
    default: return false
    }
  }

  public func hash(into hasher: inout Hasher) {
    switch self {
    case .file(let device, let inode, _):
      hasher.combine(0)
      hasher.combine(device)
      hasher.combine(inode)
    case .entry(let device, let inode, let name):
      hasher.combine(1)
      hasher.combine(device)
      hasher.combine(inode)
      hasher.combine(name)
    }
  }

  /// Whether the file exists and is a regular file.
  public var isRegularFile: Bool {
    if case .file(_, _, let isRegular) = self { return isRegular }
    return false
  }

  /// Whether the file exists.
  public var exists: Bool {
    if case .file = self { return true }
    return false
  }

  /// The identity of the file at `path`; nil when it cannot be told (a directory on the way
  /// is missing or cannot be searched, or the links loop), which the caller's `open` reports.
  public init?(path: String) {
    var status = stat()
    if stat(path, &status) == 0 {
      self = .file(status)
      return
    }
    guard errno == ENOENT, let target = Self.followingLinks(path) else { return nil }
    let (directory, name) = Self.split(target)
    guard stat(directory, &status) == 0 else { return nil }
    self = .entry(
      directory: UInt64(status.st_dev), directoryInode: UInt64(status.st_ino),
      name: Array(name.utf8))
  }

  /// The identity of the file open at `fd`; nil when `fstat(2)` fails.
  public init?(fd: Int32) {
    var status = stat()
    guard fstat(fd, &status) == 0 else { return nil }
    self = .file(status)
  }

  private static func file(_ status: stat) -> FileIdentity {
    .file(
      device: UInt64(status.st_dev), inode: UInt64(status.st_ino),
      isRegular: status.st_mode & S_IFMT == S_IFREG)
  }

  /// `path` with symbolic links in its last component followed, each relative target taken
  /// from the link's directory: the file the path opens or creates, named so that what is
  /// made beside it (a store's lock, journal and new version) is made beside the target. The
  /// directories on the way are left as they are: a name beside a file is the same file
  /// whichever way its directory is reached. Nil when the links loop (more than 40).
  public static func followingLinks(_ path: String) -> String? {
    var current = path
    for _ in 0..<40 {
      var status = stat()
      guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else {
        return current
      }
      guard let target = readLink(current), !target.isEmpty else { return current }
      if target.hasPrefix("/") {
        current = target
      } else {
        let (directory, _) = split(current)
        current = directory == "." && !current.hasPrefix("./") ? target : directory + "/" + target
      }
    }
    return nil
  }

  /// The target of the symbolic link at `path`, or nil.
  private static func readLink(_ path: String) -> String? {
    var size = 256
    while size <= 1 << 16 {
      var bytes = [UInt8](repeating: 0, count: size)
      let count = bytes.withUnsafeMutableBufferPointer { buffer in
        buffer.baseAddress.map { base in
          base.withMemoryRebound(to: CChar.self, capacity: size) { readlink(path, $0, size) }
        } ?? -1
      }
      guard count >= 0 else { return nil }
      if count < size { return String(decoding: bytes[0..<count], as: UTF8.self) }
      size *= 4
    }
    return nil
  }

  /// The directory that holds `path` (`.` for a bare name) and its last component.
  public static func split(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }
}

/// A file one run of a tool reads or writes, named for the user by its role: the files of a
/// run are checked against each other (`firstClash`) before anything is touched.
public struct RunFile: Sendable {
  /// How the user knows the file: `--archive 'archive.ndjson'`, `the store's lock '...'`.
  public var role: String
  /// Whether the run writes the file (or replaces it, or locks it); else it only reads it.
  public var isWritten: Bool
  /// Which file it is; nil when that cannot be told (see `FileIdentity.init(path:)`).
  public var identity: FileIdentity?
  /// The path as given, compared when the identity cannot be told.
  public var path: String

  /// A file named by `path`.
  public init(role: String, path: String, isWritten: Bool) {
    self.role = role
    self.path = path
    self.isWritten = isWritten
    identity = FileIdentity(path: path)
  }

  /// A file open at `fd` (standard output), counted only when it is a regular file: a pipe or
  /// a terminal is no file another option can name.
  public init?(role: String, fd: Int32, isWritten: Bool) {
    guard let identity = FileIdentity(fd: fd), identity.isRegularFile else { return nil }
    self.role = role
    self.path = ""
    self.isWritten = isWritten
    self.identity = identity
  }

  /// The first two of `files` that are one file while the run writes at least one of them (a
  /// file read twice is harmless: `cat a a`), or nil. Files whose identity cannot be told are
  /// compared by their paths as given.
  ///
  /// - Complexity: O(w × n) for w written files among n.
  public static func firstClash(_ files: [RunFile]) -> (RunFile, RunFile)? {
    let written = files.indices.filter { files[$0].isWritten }
    var found: (Int, Int)? = nil
    for w in written {
      for other in files.indices where other != w && (other > w || !files[other].isWritten) {
        guard files[w].isSameFile(as: files[other]) else { continue }
        let pair = (min(w, other), max(w, other))
        if found.map({ pair < $0 }) ?? true { found = pair }
      }
    }
    return found.map { (files[$0.0], files[$0.1]) }
  }

  /// Whether `other` is the same file.
  func isSameFile(as other: RunFile) -> Bool {
    switch (identity, other.identity) {
    case (.some(let a), .some(let b)): return a == b
    default: return !path.isEmpty && path == other.path
    }
  }
}
