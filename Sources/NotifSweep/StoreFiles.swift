import NotifCLI
import NotifJSON
import NotifModel

/// The checks on the files of a run that writes a store (a sweep, `notif-parse --store`), made
/// before anything is touched: each file it writes is a file of its own, and the store and the
/// files appended beside it are regular files.
enum StoreFiles {
  /// The files a run writes for `store`: the store (its symbolic links followed), its lock
  /// and, for a sweep (`journal`), its journal, each named for the user as the option that
  /// names the store (`--store`; notif-responses's `--prune`).
  static func storeFiles(_ store: String, journal: Bool, option: String = "--store") -> [RunFile] {
    let target = FileIdentity.followingLinks(store) ?? store
    let owner = option == "--store" ? "the store's" : "\(option)'s"
    var files = [
      RunFile(role: "\(option) '\(store)'", path: store, isWritten: true),
      RunFile(role: "\(owner) lock '\(target).lock'", path: target + ".lock", isWritten: true),
    ]
    if journal {
      let path = StoreRewrite.journalPath(store: target)
      files.insert(
        RunFile(role: "\(owner) journal '\(path)'", path: path, isWritten: true), at: 1)
    }
    return files
  }

  /// Refuses the first of `files` (an option and its path, if given) that exists and is not a
  /// regular file: a FIFO would block or swallow the records, a device or a directory cannot
  /// be replaced, synced or cut back.
  static func requireRegular(_ files: [(option: String, path: String?)]) throws(UsageError) {
    for case (let option, let path?) in files {
      guard let identity = FileIdentity(path: path), identity.exists, !identity.isRegularFile
      else { continue }
      throw UsageError(
        "\(option) '\(path)' is not a regular file: a store, its archive and its quarantine "
          + "file must be regular files")
    }
  }

  /// Refuses two files that are one (`RunFile.firstClash`) among the files the run writes,
  /// `written`, and the files it reads, `reading` (by role and path): a file written may be no
  /// other file of the run.
  static func requireDistinct(_ written: [RunFile], reading: [(role: String, path: String)])
    throws(UsageError)
  {
    let files =
      written
      + reading.map { RunFile(role: "\($0.role) '\($0.path)'", path: $0.path, isWritten: false) }
    if let (first, second) = RunFile.firstClash(files) {
      throw UsageError(
        "\(second.role) is the same file as \(first.role): each must be a file of its own")
    }
  }
}
