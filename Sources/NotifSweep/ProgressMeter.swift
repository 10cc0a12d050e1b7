/// Says how far a long sweep has come, at most once a second: records, bytes and records/s.
///
/// The meter only builds the text; the tool writes it (to a terminal, with `\r` so each line
/// replaces the last). Time is a parameter, in seconds on a monotonic clock.
public struct ProgressMeter: Sendable {
  private let start: Double
  private var last: Double
  /// Whether any line was produced (so the tool ends the terminal line at the end).
  public private(set) var shown = false

  /// Starts measuring at `start`.
  public init(start: Double) {
    self.start = start
    last = start
  }

  /// The progress text, or nil when less than a second passed since the last one.
  ///
  /// `2,000,000 records, 1.4 GB, 1,520,000 records/s`
  public mutating func update(records: Int, bytes: Int64, now: Double) -> String? {
    guard now - last >= 1 else { return nil }
    last = now
    shown = true
    let rate = now > start ? Int((Double(records) / (now - start)).rounded()) : 0
    return "\(Self.grouped(records)) records, \(Self.size(bytes)), \(Self.grouped(rate)) records/s"
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
}
