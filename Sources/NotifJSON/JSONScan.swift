import CNotifSIMD

/// How the JSON reader finds the bytes of a string it must look at: through a vector first
/// pass over the bytes (`CNotifSIMD`, AVX2 where the CPU has it, else SSE2 or NEON), or byte
/// by byte, eight at a time (the scalar path, the reference the vector one is checked against).
///
/// Both read every text to the same tape, the same errors at the same offsets, with the same
/// words: the vector pass only says where the next quote, backslash, control character or
/// non-ASCII byte is, 64 bytes at a time, and each of those is read as the scalar path reads
/// it.
public enum JSONScan: Sendable, Equatable {
  /// The vector pass where it pays: for a text that follows a long one (strings in short texts
  /// mostly end within a few words, where the pass costs more than it saves). Other texts are
  /// read sixteen bytes a step with SSE2 on x86-64 (`notif_simd_stops16`), eight elsewhere.
  case automatic
  /// The vector pass for every text (the tests and the fuzz target force it so).
  case vector
  /// Byte by byte: the reference, and what `NOTIF_JSON_SCALAR=1` chooses.
  case scalar

  /// `.scalar` when the environment has `NOTIF_JSON_SCALAR=1`, else `.automatic`: read once,
  /// the first time a parser is made, so one switch checks every tool on the scalar path.
  public static let `default`: JSONScan = {
    guard let value = getenv("NOTIF_JSON_SCALAR") else { return .automatic }
    return String(cString: value) == "1" ? .scalar : .automatic
  }()

  /// The unit's number in CNotifSIMD.
  var level: Int32 {
    switch self {
    case .automatic, .vector: JSONScan.bestLevel
    case .scalar: Int32(NOTIF_SIMD_SCALAR)
    }
  }

  private static let bestLevel = notif_simd_best_level()
}
