import NotifJSON
import NotifModel

/// The collapse key and mark of every record with a collapse_id, as the first survey pass
/// finds them, kept for the second: so that the second reads this log, not the whole input
/// again.
///
/// The first `memoryLimit` entries stay in memory, the rest go to a temporary file that has no
/// name (unlinked at once, so nothing is left behind however the process ends): memory stays
/// flat whatever the input. If the file cannot be made or written, the log stops recording and
/// says so (`isComplete` is false); the caller then reads the input again instead.
struct CollapseLog: ~Copyable {
  typealias Entry = (key: KeyHash, mark: Mark)

  /// Entries kept in memory before the log spills to a file: 256 KiB.
  static let defaultMemoryLimit = 8192

  private let temporaryDirectory: String
  private let memoryLimit: Int
  private var memory: [Entry] = []
  private var file: Int32 = -1
  private var fileName = ""
  /// Whether every entry appended is in the log.
  private(set) var isComplete = true
  /// How many entries the log holds.
  private(set) var count = 0

  init(temporaryDirectory: String, memoryLimit: Int = CollapseLog.defaultMemoryLimit) {
    self.temporaryDirectory = temporaryDirectory
    self.memoryLimit = max(memoryLimit, 1)
  }

  deinit {
    if file >= 0 { close(file) }
  }

  mutating func append(_ entry: Entry) {
    guard isComplete else { return }
    if memory.count == memoryLimit { spill() }
    guard isComplete else { return }
    memory.append(entry)
    count += 1
  }

  /// Writes the entries in memory to the file (made on first use).
  private mutating func spill() {
    if file < 0 {
      guard let made = try? TemporaryFile.make(in: temporaryDirectory, prefix: "notif-expire")
      else { return abandon() }
      file = made.fd
      fileName = made.name
    }
    let failure = memory.withUnsafeBytes { raw in
      OutputWriter.writeAll(raw, to: file, name: fileName)
    }
    guard failure == nil else { return abandon() }
    memory.removeAll(keepingCapacity: true)
  }

  private mutating func abandon() {
    isComplete = false
    memory = []
    count = 0
    if file >= 0 {
      close(file)
      file = -1
    }
  }

  /// Calls `body` with every entry, in the order appended.
  ///
  /// - Throws: `SystemError` if the file cannot be read back.
  func forEach(_ body: (Entry) -> Void) throws(SystemError) {
    if file >= 0 {
      guard lseek(file, 0, SEEK_SET) == 0 else {
        throw SystemError(path: fileName, doing: "cannot read again", errno: errno)
      }
      let stride = MemoryLayout<Entry>.stride
      try withUnsafeTemporaryAllocation(of: Entry.self, capacity: 2048) {
        buffer throws(SystemError) in
        guard let base = UnsafeMutableRawPointer(buffer.baseAddress) else { return }
        let size = buffer.count * stride
        var filled = 0
        while true {
          let got = read(file, base + filled, size - filled)
          if got < 0 {
            if errno == EINTR { continue }
            throw SystemError(path: fileName, doing: "read error", errno: errno)
          }
          filled += got
          let whole = filled / stride
          for index in 0..<whole { body(buffer[index]) }
          if got == 0 { break }
          // A read may end inside an entry: its first bytes move to the front.
          filled -= whole * stride
          if filled > 0 { base.copyMemory(from: base + whole * stride, byteCount: filled) }
        }
      }
    }
    for entry in memory { body(entry) }
  }
}
