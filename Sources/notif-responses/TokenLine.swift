import NotifJSON
import NotifModel

/// One line of a token file, in either of the two forms that `--tokens` and `--prune` read
/// (notif-responses(1)): a JSON object with `token` and, where the line says when the token
/// was registered, `registered_at`; or the token, and after white space the time.
///
/// A registration time is RFC 3339, or whole seconds since 1970 (a JSON number with no
/// fraction, written `1764140000`, `1764140000.0` or `1.76414e9`, or those digits as text); it
/// must lie in notif(5)'s range, 0001-01-01 to 9999-12-31. A time that cannot be read so is
/// never taken for another: the line says which token it is about and why its time is
/// unreadable, so that the token is kept, never pruned.
enum TokenLine: Equatable {
  /// White space only.
  case blank
  /// A token, with the time the line says it was registered, if it says.
  case token([UInt8], registeredAt: Timestamp?)
  /// A token whose registration time is there but cannot be read: why, in one line.
  case unreadableTime([UInt8], String)
  /// Not a line of a token file: why, in one line.
  case other(String)

  /// Reads `line` (without its line feed); `parser` is reused from line to line.
  static func read(_ line: UnsafeRawBufferPointer, parser: inout JSONParser) -> TokenLine {
    let text = LineReader.trimmed(line)
    guard let first = text.first else { return .blank }
    guard first == UInt8(ascii: "{") else { return readPlain(text) }
    guard case .complete(let end) = parser.parse(text, isFinal: true), end == text.count else {
      return .other("not a JSON object on one line")
    }
    return parser.withView(over: text) { view -> TokenLine in
      guard view.kind(0) == .object, let token = view.member(0, "token"),
        view.kind(token) == .string
      else { return .other("a JSON line of a token file needs 'token', a string") }
      let bytes = view.stringBytes(token)
      guard let at = view.member(0, "registered_at"), view.kind(at) != .null else {
        return .token(bytes, registeredAt: nil)
      }
      do throws(UnreadableTime) {
        return .token(bytes, registeredAt: try registrationTime(view, at))
      } catch {
        return .unreadableTime(bytes, "'registered_at': \(error.message)")
      }
    }
  }

  /// The plain form: the token alone, or the token and its time.
  private static func readPlain(_ text: UnsafeRawBufferPointer) -> TokenLine {
    let fields = text.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
    switch fields.count {
    case 1: return .token(Array(fields[0]), registeredAt: nil)
    case 2:
      let token = Array(fields[0])
      do throws(UnreadableTime) {
        let time = String(decoding: fields[1], as: UTF8.self)
        return .token(token, registeredAt: try registrationTime(text: time))
      } catch {
        return .unreadableTime(token, "the registration time: \(error.message)")
      }
    default:
      return .other("a line is a token, or a token and the time it was registered")
    }
  }

  /// A registration time written as text: RFC 3339, or whole seconds since 1970.
  static func registrationTime(text: String) throws(UnreadableTime) -> Timestamp {
    let digits = text.utf8.allSatisfy { $0 &- UInt8(ascii: "0") <= 9 }
    if digits && !text.isEmpty {
      return try epochSeconds(text, naming: text)
    }
    do throws(TimeError) {
      return try Timestamp(rfc3339: text)
    } catch {
      throw error.isOutOfRange ? UnreadableTime(error) : .unreadable(text)
    }
  }

  /// A registration time in JSON: a string as `registrationTime(text:)` reads it, or a number
  /// of whole seconds.
  static func registrationTime(_ view: JSONView, _ index: Int) throws(UnreadableTime) -> Timestamp {
    if let text = view.stringValue(index) { return try registrationTime(text: text) }
    let raw = String(decoding: view.raw(index), as: UTF8.self)
    guard view.kind(index) == .number, let seconds = wholeNumber(view, index) else {
      throw UnreadableTime.unreadable(raw)
    }
    return try epochSeconds("\(seconds)", naming: raw)
  }

  /// Whole seconds since 1970, in notif(5)'s range.
  private static func epochSeconds(_ digits: String, naming value: String)
    throws(UnreadableTime) -> Timestamp
  {
    let time: Timestamp?
    do throws(TimeError) {
      time = try Timestamp.epochSeconds(digits[...], naming: value)
    } catch {
      throw UnreadableTime(error)
    }
    guard let time else { throw .unreadable(value) }
    return time
  }

  /// The value of the JSON number at `index` if it is a whole number of at most 15 digits
  /// however it is written (`1764140000000`, `1764140000000.0`, `1.76414e12`): such a number
  /// is exact in a `Double`, and so is its value. Nil for any other value.
  static func wholeNumber(_ view: JSONView, _ index: Int) -> Int64? {
    if let value = view.integer(index) { return value }
    guard let value = view.double(index), value.isFinite, value.rounded() == value,
      abs(value) < 1e15
    else { return nil }
    return Int64(value)
  }
}

/// A registration time that cannot be read: why, in one line.
struct UnreadableTime: Error, Equatable {
  var message: String

  init(_ error: TimeError) { message = error.message }

  /// The error for a time that is neither RFC 3339 nor whole seconds since 1970.
  static func unreadable(_ value: String) -> UnreadableTime {
    let shown = value.count > 40 ? String(value.prefix(40)) + "..." : value
    return UnreadableTime(
      message: "'\(shown)' is neither RFC 3339 nor whole seconds since 1970")
  }

  private init(message: String) { self.message = message }
}
