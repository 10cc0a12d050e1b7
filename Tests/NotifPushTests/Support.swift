import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import NotifPush

// Helpers shared by the unit tests of the message readers: parse a text, run a reader over it
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

/// Normalizes `text` with a new normalizer, which writes every field (`--dense`): the tests
/// read each field's value, null ones too.
func normalize(
  _ text: String, app: String? = nil, pushType: String? = nil,
  now: Timestamp = Timestamp(seconds: 0)
) -> Normalized {
  var defaults = InputDefaults(app: app, pushType: pushType, now: now)
  defaults.dense = true
  var normalizer = MessageReader(defaults: defaults)
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

/// A finding as a case states it: its severity, code, message and offset (its rule is the
/// rule book cases' to check, rules/cases).
struct StatedFinding: Equatable, Sendable {
  var severity: Severity
  var code: String
  var message: String
  var offset: Int

  init(severity: Severity, code: String, message: String, offset: Int) {
    self.severity = severity
    self.code = code
    self.message = message
    self.offset = offset
  }

  init(_ finding: Finding) {
    self.init(
      severity: finding.severity, code: finding.code, message: finding.message,
      offset: finding.offset)
  }
}

/// A payload and the findings it must give, each located by a needle (see `offset(of:in:)`);
/// no needle means offset 0.
struct FindingCase: Sendable, CustomTestStringConvertible {
  var payload: String
  var expected: [StatedFinding]

  init(_ payload: String, _ findings: [(Severity, String, String, String?)]) {
    self.payload = payload
    expected = findings.map { severity, code, message, needle in
      StatedFinding(
        severity: severity, code: code, message: message,
        offset: needle.map { offset(of: $0, in: payload) } ?? 0)
    }
  }

  var testDescription: String { payload }
}
