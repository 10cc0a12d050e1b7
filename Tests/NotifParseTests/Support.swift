import NotifJSON
import NotifModel
import Testing

@testable import notif_parse

// Helpers shared by the unit tests of notif-parse: parse a text, run the normalizer over it
// and show what it found and wrote as plain values.

/// What the normalizer made of one JSON text.
struct Normalized {
  /// The findings, in the order found.
  var findings: [Finding]
  /// The record's keys, in order.
  var keys: [String]
  /// Each key's value in compact JSON.
  var fields: [String: String]
  /// The record line as written, with its newline; empty for a text that is not an object.
  var line: String

  subscript(key: String) -> String? { fields[key] }
}

/// The byte offset of `needle` in `text`. A `|` in the needle marks the point wanted, so
/// `"badge":|-1` is where `-1` starts after `"badge":`.
func offset(of needle: String, in text: String) -> Int {
  let parts = needle.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
  let whole = Array(parts.joined().utf8)
  let shift = parts.count == 2 ? parts[0].utf8.count : 0
  let bytes = Array(text.utf8)
  guard whole.count <= bytes.count else { return -1 }
  for start in 0...(bytes.count - whole.count)
  where Array(bytes[start..<start + whole.count]) == whole {
    return start + shift
  }
  return -1
}

/// The members of the JSON object `line`, in order, each value in compact form.
func members(of line: String) -> [(String, String)] {
  var parser = JSONParser()
  let bytes = Array(line.utf8)
  return bytes.withUnsafeBytes { raw in
    guard case .complete = parser.parse(raw, isFinal: true) else { return [] }
    return parser.withView(over: raw) { view in
      var members: [(String, String)] = []
      view.forEachMember(of: 0) { key, value in
        var out = ByteBuffer()
        JSONWriter.writeCompact(view, value, into: &out)
        members.append((view.string(key), out.text))
      }
      return members
    }
  }
}

/// Normalizes `text` with a new normalizer.
func normalize(
  _ text: String, app: String? = nil, pushType: String? = nil,
  now: Timestamp = Timestamp(seconds: 0)
) -> Normalized {
  var normalizer = MessageReader(defaults: InputDefaults(app: app, pushType: pushType, now: now))
  return normalize(text, with: &normalizer)
}

/// Normalizes `text` with `normalizer`, as notif-parse does for each record.
func normalize(_ text: String, with normalizer: inout MessageReader, isCompact: Bool? = nil)
  -> Normalized
{
  var parser = JSONParser()
  let bytes = Array(text.utf8)
  return bytes.withUnsafeBytes { raw in
    guard case .complete = parser.parse(raw, isFinal: true) else {
      Issue.record("not valid JSON: \(text)")
      return Normalized(findings: [], keys: [], fields: [:], line: "")
    }
    let compact = isCompact ?? parser.isCompact
    return parser.withView(over: raw) { view in
      normalizer.read(view, isCompact: compact)
      var out = ByteBuffer()
      if view.kind(0) == .object { normalizer.writeRecord(view, into: &out) }
      let line = out.text
      let found = line.isEmpty ? [] : members(of: String(line.dropLast()))
      return Normalized(
        findings: normalizer.findings, keys: found.map(\.0),
        fields: Dictionary(found, uniquingKeysWith: { first, _ in first }), line: line)
    }
  }
}

/// A payload and the findings it must give, each located by a needle (see `offset(of:in:)`);
/// no needle means offset 0.
struct FindingCase: Sendable, CustomTestStringConvertible {
  var payload: String
  var expected: [Finding]

  init(_ payload: String, _ findings: [(Severity, String, String, String?)]) {
    self.payload = payload
    expected = findings.map { severity, code, message, needle in
      Finding(
        severity: severity, code: code, message: message,
        offset: needle.map { offset(of: $0, in: payload) } ?? 0)
    }
  }

  var testDescription: String { payload }
}
