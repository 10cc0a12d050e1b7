import NotifModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
    }
    let failure = memory.withUnsafeBytes { raw in
      OutputWriter.writeAll(raw, to: file, name: "temporary file")
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
        throw SystemError(path: "temporary file", doing: "cannot read again", errno: errno)
      }
      let capacity = 2048
      try withUnsafeTemporaryAllocation(of: Entry.self, capacity: capacity) {
        buffer throws(SystemError) in
        let raw = UnsafeMutableRawBufferPointer(buffer)
        var filled = 0
        while true {
          let got = read(file, raw.baseAddress! + filled, raw.count - filled)
          if got < 0 {
            if errno == EINTR { continue }
            throw SystemError(path: "temporary file", doing: "read error", errno: errno)
          }
          filled += got
          let whole = filled / MemoryLayout<Entry>.stride
          for index in 0..<whole { body(buffer[index]) }
          if got == 0 { break }
          let rest = filled - whole * MemoryLayout<Entry>.stride
          if rest > 0 {
            raw.baseAddress!.copyMemory(
              from: raw.baseAddress! + whole * MemoryLayout<Entry>.stride, byteCount: rest)
          }
          filled = rest
        }
      }
    }
    for entry in memory { body(entry) }
  }
}
