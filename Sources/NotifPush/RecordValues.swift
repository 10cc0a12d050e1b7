import NotifJSON
import NotifModel

extension RecordField {
  /// `{"id":null,"app":null,...,"payload":null`: a record with every field null. Field i's
  /// `,"key":null` (or `{"id":null`) is `nullTemplate[nullStarts[i]..<nullStarts[i + 1]]`,
  /// and its `,"key":` alone ends 4 bytes earlier. A run of null fields is one copy.
  fileprivate static let nullTemplate: [UInt8] = {
    var template: [UInt8] = []
    for field in allCases {
      template += field == .id ? [0x7B, 0x22] : [0x2C, 0x22]
      template += field.key.utf8
      template += [0x22, 0x3A, 0x6E, 0x75, 0x6C, 0x6C]  // ":null
    }
    return template
  }()
  fileprivate static let nullStarts: [Int] = {
    var starts = [0]
    for field in allCases {
      starts.append(starts[starts.count - 1] + 2 + field.key.utf8.count + 6)  // {" or ," key ":null
    }
    return starts
  }()
}

/// The push service format an input was read as: the record's `source` (notif(5)).
public enum PushSource: UInt8, Sendable {
  case apns, fcm, fcmLegacy, webPush, sns, expo

  /// The JSON string written for it.
  var json: StaticString {
    switch self {
    case .apns: return "\"apns\""
    case .fcm: return "\"fcm\""
    case .fcmLegacy: return "\"fcm-legacy\""
    case .webPush: return "\"webpush\""
    case .sns: return "\"sns\""
    case .expo: return "\"expo\""
    }
  }
}

/// The value of one record field before it is written.
///
/// Trivially copyable on purpose: a record is filled and written a million times a second, and
/// a `String` payload here would cost a retain and a release on every access.
public enum FieldValue: Sendable, Equatable {
  /// JSON `null`.
  case null
  /// A value copied from the input, by its index on the input's tape, in canonical form.
  case input(Int)
  /// An integer.
  case integer(Int64)
  /// `true` or `false`.
  case bool(Bool)
  /// An instant, written in RFC 3339 UTC.
  case time(Timestamp)
  /// A 64-bit hash, written as a string of 16 lowercase hex digits.
  case hash(UInt64)
  /// A string set with `RecordValues.set(_:text:)`: its JSON form is the bytes in this range of
  /// the record's own text storage.
  case text(Int, Int)
  /// The input's format, for `source`.
  case source(PushSource)
}

/// The fields of one record, filled in any order and written in `RecordField` order.
public struct RecordValues: Sendable {
  // In place, one for each `RecordField` (`init` checks the count), not an array: fields are
  // set and read some hundred times a record, and an array checks that its storage is not
  // shared before each write.
  var values: InlineArray<39, FieldValue>
  private var texts = ByteBuffer(capacity: 256)
  // The last instant written and its text, one for created_at (most records of a run share
  // it) and one for the other times, so that neither pushes the other out.
  private var cachedTimes: (Timestamp?, Timestamp?) = (nil, nil)
  private var cachedTimeTexts = (ByteBuffer(capacity: 32), ByteBuffer(capacity: 32))

  /// Creates a record with every field null.
  init() {
    values = InlineArray(repeating: .null)
    precondition(values.count == RecordField.allCases.count, "a value for each record field")
  }

  /// Sets every field back to null, keeping the storage.
  mutating func reset() {
    values = InlineArray(repeating: .null)
    texts.removeAll()
  }

  /// The value of a field.
  public subscript(field: RecordField) -> FieldValue {
    get { values[field.rawValue] }
    set { values[field.rawValue] = newValue }
  }

  /// Sets a field to a string.
  mutating func set(_ field: RecordField, text: String) {
    let start = texts.count
    JSONEscapes.writeString(text, into: &texts)
    values[field.rawValue] = .text(start, texts.count)
  }

  /// Sets a field to a copy of the value at `index` of `view`, compact: for a value from a text
  /// that will not be at hand when the record is written (JSON inside a JSON string).
  mutating func set(_ field: RecordField, copying index: Int, of view: JSONView) {
    let start = texts.count
    JSONWriter.writeCompact(view, index, into: &texts)
    values[field.rawValue] = .text(start, texts.count)
  }

  /// The string value of a field (from the input or set as text), or nil for any other value.
  public func string(_ field: RecordField, in view: JSONView) -> String? {
    switch values[field.rawValue] {
    case .input(let index):
      return view.stringValue(index)
    case .text(let start, let end):
      guard end - start >= 2, texts.withUnsafeBytes({ $0[start] }) == UInt8(ascii: "\"") else {
        return nil
      }
      return texts.withUnsafeBytes { raw in
        var decoded = ByteBuffer(capacity: end - start)
        JSONEscapes.unescape(
          UnsafeRawBufferPointer(rebasing: raw[start + 1..<end - 1]), into: &decoded)
        return decoded.text
      }
    default:
      return nil
    }
  }

  /// Appends the record as one compact JSON line (with its newline) to `out`: every field but
  /// `payload` from `self`, then `payload` as given (already compact JSON), in `RecordField`
  /// order. A null field is left out (notif(5): a field left out is null), unless `dense`,
  /// which writes every field, null ones too, for readers that want one set of keys.
  ///
  /// `input` values are copied from `view`.
  mutating func write(
    view: JSONView, payload: UnsafeRawBufferPointer, dense: Bool = false,
    into out: inout ByteBuffer
  ) {
    var from = 0
    // Each form with its own loop, `dense` a constant in it.
    while let (field, token) = out.write({ writer in
      dense
        ? writeFields(from: from, view: view, payload: payload, dense: true, into: &writer)
        : writeFields(from: from, view: view, payload: payload, dense: false, into: &writer)
    }) {
      // A value the writer of JSON writes again in canonical form; its key is written, and
      // the fields after it follow.
      JSONWriter.writeCompact(view, token, into: &out)
      from = field + 1
    }
  }

  /// Writes the fields from `first` on, the last with the closing brace and newline, up to the
  /// first whose value must be written again in canonical form (`rewritten`): of that one,
  /// only the key, and its index and the value's token are returned; nil when the record is
  /// written.
  @inline(__always)
  private mutating func writeFields(
    from first: Int, view: JSONView, payload: UnsafeRawBufferPointer, dense: Bool,
    into out: inout ByteBuffer.Writer
  ) -> (field: Int, token: Int)? {
    RecordField.nullTemplate.withUnsafeBytes { template in
      RecordField.nullStarts.withUnsafeBufferPointer { starts in
        var nullRun = first  // the first field of the run of nulls not yet written
        // By index, not `allCases`, which makes an array at each call.
        for index in first..<values.count {
          let isPayload = index == RecordField.payload.rawValue
          if !isPayload, case .null = values[index] { continue }
          // Dense, the nulls before this field and its `,"key":` are one run of the template;
          // else its `,"key":` alone.
          let from = dense ? starts[nullRun] : starts[index]
          if nullRun == 0 && index > 0 {
            // Nothing written yet, and `id`, whose `{"id":` opens the template, is null: the
            // object opens at this field, whose `,"key":` loses its comma.
            out.append(UInt8(ascii: "{"))
            out.append(
              UnsafeRawBufferPointer(rebasing: template[from + 1..<starts[index + 1] - 4]))
          } else {
            out.append(UnsafeRawBufferPointer(rebasing: template[from..<starts[index + 1] - 4]))
          }
          nullRun = index + 1
          if isPayload {
            out.append(payload)
          } else if let token = Self.rewritten(values[index], view) {
            return (index, token)
          } else {
            write(
              values[index], isCreatedAt: index == RecordField.createdAt.rawValue, view: view,
              into: &out)
          }
        }
        out.append("}\n")
        return nil
      }
    }
  }

  /// The token of `value` if it is one from the input that is not written as it is: an
  /// object, an array or a string with an escape.
  @inline(__always)
  private static func rewritten(_ value: FieldValue, _ view: JSONView) -> Int? {
    guard case .input(let index) = value else { return nil }
    let token = view.tokens[index]
    let rewrites =
      token.kind == .object || token.kind == .array || (token.kind == .string && token.flag)
    return rewrites ? index : nil
  }

  /// Writes a value that is not `rewritten`.
  private mutating func write(
    _ value: FieldValue, isCreatedAt: Bool, view: JSONView, into out: inout ByteBuffer.Writer
  ) {
    switch value {
    case .null: out.append("null")
    // A scalar with no escape is already canonical: its bytes, quotes and all, in one copy.
    case .input(let index): out.append(view.raw(index))
    case .integer(let value): out.append(decimal: value)
    case .bool(let value): out.append(value ? "true" : "false")
    case .time(let instant):
      if isCreatedAt {
        Self.write(instant, cachedAs: &cachedTimes.0, &cachedTimeTexts.0, into: &out)
      } else {
        Self.write(instant, cachedAs: &cachedTimes.1, &cachedTimeTexts.1, into: &out)
      }
    case .hash(let value):
      out.append(UInt8(ascii: "\""))
      out.append(hex: value)
      out.append(UInt8(ascii: "\""))
    case .text(let start, let end):
      texts.withUnsafeBytes { out.append(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
    case .source(let source):
      out.append(source.json)
    }
  }

  private static func write(
    _ instant: Timestamp, cachedAs cached: inout Timestamp?, _ text: inout ByteBuffer,
    into out: inout ByteBuffer.Writer
  ) {
    if cached != instant {
      text.removeAll()
      text.append(UInt8(ascii: "\""))
      instant.write(into: &text)
      text.append(UInt8(ascii: "\""))
      cached = instant
    }
    out.append(text)
  }
}
