/// Whether reads of `fd` can wait for input: a pipe, terminal or socket, not a regular file
/// (whose reads return at once, at its end too).
func readsCanWait(_ fd: Int32) -> Bool {
  var status = stat()
  return fd >= 0 && fstat(fd, &status) == 0 && status.st_mode & S_IFMT != S_IFREG
}

/// Tells a reader when its input has paused, so that what was read goes out before a read
/// that waits (`LineReader`, `RecordReader` and `FileChunks`, when they announce idle).
///
/// Nothing to read at one instant is not yet a pause: a writer between two writes leaves a
/// pipe empty for a few microseconds. `cat FILE | notif-mark --read --all` over the 1M-record
/// bench found the pipe empty 600 to 770 times a run, and each time handed every batch in
/// flight to the output and waited for the workers; the run took 0.83 to 1.01 s against 0.76
/// to 0.81 s with none of those. The input has paused when nothing comes within `grace`; or,
/// once the bytes read since the last pause have been held for `longestHold`, when nothing is
/// there at the instant, so that lines that trickle in, each sooner than the grace, still go
/// out every `longestHold` or so. A pause that ends in less than the grace is not announced.
struct InputPause {
  /// How long a read may wait before the input counts as paused, in milliseconds.
  let grace: Int32
  /// How long bytes read since the last pause may wait for one, in nanoseconds.
  let longestHold: UInt64

  /// When the reader began reading after the last pause (CLOCK_MONOTONIC, nanoseconds); 0
  /// when it has not yet.
  private var heldSince: UInt64 = 0

  /// The grace of the readers' pauses, in milliseconds. The `pipe-chunks` fuzz target sets 0,
  /// so that each gap of its writer, a thread that yields between short writes, may be a pause.
  nonisolated(unsafe) static var standardGrace: Int32 = 2

  /// The readers' pause: the standard grace, bytes held 50 ms at most.
  init(grace: Int32 = InputPause.standardGrace, longestHold: UInt64 = 50_000_000) {
    self.grace = grace
    self.longestHold = longestHold
  }

  /// Whether a read of `fd` would wait now. Called before the reads that may pause.
  mutating func wouldWait(_ fd: Int32) -> Bool {
    let now = Self.now()
    if heldSince == 0 { heldSince = now }
    var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    if poll(&ready, 1, 0) != 0 { return false }
    if now &- heldSince < longestHold {
      while true {
        let answer = poll(&ready, 1, grace)
        if answer > 0 { return false }
        if answer == 0 || errno != EINTR { break }
      }
    }
    heldSince = 0
    return true
  }

  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
  }
}
