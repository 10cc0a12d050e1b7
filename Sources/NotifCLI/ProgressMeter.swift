/// Says how far a long run has come, at most once a second and not before it has run two
/// seconds: records, bytes, records/s, and when the input's size is known, as `pv` shows it,
/// the fraction read and the time left.
///
/// The meter only builds the text; `Reporter` writes it (to a terminal, with `\r` so each line
/// replaces the last). Time is a parameter, in seconds on a monotonic clock.
public struct ProgressMeter: Sendable {
  private let start: Double
  private var last: Double
  /// The bytes the whole input holds, when they are known (regular files only).
  private let total: Int64?
  /// Whether any line was produced (so the tool ends the terminal line at the end).
  public private(set) var shown = false

  /// How long a run goes before its first line: a short run shows none.
  public static let quietSeconds = 2.0

  /// Starts measuring at `start`, for an input of `total` bytes if that is known.
  public init(start: Double, total: Int64? = nil) {
    self.start = start
    // The first line is due `quietSeconds` after the start; the later ones a second apart.
    last = start + Self.quietSeconds - 1
    self.total = total.flatMap { $0 > 0 ? $0 : nil }
  }

  /// The progress text, or nil when it is not yet time for one.
  ///
  /// `2,000,000 records, 1.4 GB, 1,520,000 records/s`, or with a known size
  /// `2,000,000 records, 1.4 GB of 3.1 GB (45%), 1,520,000 records/s, 2 s left`.
  public mutating func update(records: Int, bytes: Int64, now: Double) -> String? {
    guard now - last >= 1 else { return nil }
    last = now
    shown = true
    let seconds = now - start
    let rate = seconds > 0 ? Int((Double(records) / seconds).rounded()) : 0
    guard let total else {
      return
        "\(Self.grouped(records)) records, \(Self.size(bytes)), \(Self.grouped(rate)) records/s"
    }
    let read = min(max(bytes, 0), total)
    let percent = Int(Double(read) * 100 / Double(total))
    var text =
      "\(Self.grouped(records)) records, \(Self.size(read)) of \(Self.size(total)) (\(percent)%), "
      + "\(Self.grouped(rate)) records/s"
    if read > 0, seconds > 0 {
      let left = Double(total - read) / (Double(read) / seconds)
      text += ", \(Self.duration(left)) left"
    }
    return text
  }

  /// This meter, for a pass that follows `earlier`'s over the same input (a sweep's survey,
  /// then its sweep): its own start and size, `earlier`'s schedule, so that a run past its
  /// quiet start goes on being shown once a second.
  public func continuing(_ earlier: ProgressMeter) -> ProgressMeter {
    var next = self
    next.last = earlier.last
    next.shown = earlier.shown
    return next
  }

  /// Notes that the line was cleared: nothing is shown until the next `update` speaks.
  public mutating func cleared() {
    shown = false
  }

  /// `1234567` as `1,234,567`.
  static func grouped(_ value: Int) -> String {
    let digits = Array(String(value))
    var out = ""
    for (i, digit) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 && digit != "-" && digits[i - 1] != "-" {
        out.append(",")
      }
      out.append(digit)
    }
    return out
  }

  /// A byte count in kB, MB or GB with one decimal (powers of 1000).
  static func size(_ bytes: Int64) -> String {
    let units: [(String, Double)] = [("GB", 1e9), ("MB", 1e6), ("kB", 1e3)]
    for (name, scale) in units where Double(bytes) >= scale {
      let tenths = (Double(bytes) / scale * 10).rounded()
      return "\(Int(tenths) / 10).\(Int(tenths) % 10) \(name)"
    }
    return "\(bytes) B"
  }

  /// Seconds as `42 s`, `3:07` or `1:02:03`, rounded up; past a day, `more than a day`.
  static func duration(_ seconds: Double) -> String {
    guard seconds.isFinite, seconds < 86_400 else { return "more than a day" }
    let whole = Int(seconds.rounded(.up))
    if whole < 60 { return "\(whole) s" }
    let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
    let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
    return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
  }
}
