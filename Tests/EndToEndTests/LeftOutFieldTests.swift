import Foundation
import NotifJSON
import NotifModel
import TestSupport
import Testing

/// A field left out is null (notif(5)): every tool reads a record with its null fields left
/// out as it reads the record with them written. Over the golden cases of the tools that read
/// records, each input record (and each record of a group or digest object) is written again
/// with every field of notif(5), the missing ones null; the tool's output, with its null
/// fields left out and its keys sorted, is the same, and so are its exit status and its
/// diagnostics, but for their columns, which move with the bytes.
@Suite struct LeftOutFieldTests {
  static let readers = [
    "notif-group", "notif-summarize", "notif-expire", "notif-mark", "notif-show", "notif-digest",
  ]

  /// The cases whose input is standard input alone: not the ones whose limits are about the
  /// length of a line, which the written-out nulls lengthen.
  static let cases = GoldenCase.selected().filter { golden in
    readers.contains(golden.tool) && golden.command == nil
      && golden.read("stdin.ndjson") != nil
      && !golden.arguments.contains { $0.hasPrefix("--max-record-bytes") || $0 == "--help" }
      && !golden.name.contains("long-line")
  }

  @Test func theCasesAreThere() {
    #expect(Self.cases.count > 100)
  }

  @Test(arguments: cases)
  func aToolReadsLeftOutFieldsAsNull(_ golden: GoldenCase) throws {
    let input = try #require(golden.read("stdin.ndjson"))
    let dense = Self.written(String(decoding: input, as: UTF8.self))
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "notif-left-out-\(UUID().uuidString).ndjson")
    try Data(dense.utf8).write(to: scratch)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let stdin = golden.folder.appendingPathComponent("stdin.ndjson")
    let asIs = try Binaries.run(
      golden.tool, golden.arguments, in: golden.folder, stdin: stdin,
      environment: golden.environment)
    let withNulls = try Binaries.run(
      golden.tool, golden.arguments, in: golden.folder, stdin: scratch,
      environment: golden.environment)
    #expect(withNulls.status == asIs.status, "exit status of \(golden)")
    #expect(
      Self.normalized(withNulls.stdout) == Self.normalized(asIs.stdout), "stdout of \(golden)")
    #expect(
      Self.normalized(withNulls.stderr, diagnostics: true)
        == Self.normalized(asIs.stderr, diagnostics: true), "diagnostics of \(golden)")
  }

  // MARK: - Writing the nulls out

  /// `text` with each record (an object with a `created_at`) written out: every field of
  /// notif(5) in order, a missing one null, then the members that are no field; each group or
  /// digest object's records too. Other objects, and what is not JSON, stay as they are.
  /// A line that is not a clean JSON object (escaped or repeated keys, a carriage return)
  /// stays as it is.
  static func written(_ text: String) -> String {
    lines(text).map { line in
      guard !line.contains("\r") else { return line }
      return withView(of: line) { view -> String? in
        guard view.kind(0) == .object else { return nil }
        return written(view, 0)
      }.flatMap { $0 } ?? line
    }.joined(separator: "\n")
  }

  /// The lines of `text`, split at each line feed (a `Character` holds CR LF as one).
  static func lines(_ text: String) -> [String] {
    text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
  }

  /// The object at `index` written out, or nil when a key has an escape or comes twice.
  static func written(_ view: JSONView, _ index: Int) -> String? {
    var members: [(key: String, value: Int)] = []
    var clean = true
    view.forEachMember(of: index) { key, value in
      if view.tokens[key].flag { clean = false }
      members.append((view.string(key), value))
    }
    guard clean, Set(members.map(\.key)).count == members.count else { return nil }
    let names = Set(members.map(\.key))
    let isGroupOrDigest = names.contains("leading") || names.contains("digest_id")
    var parts: [String] = []
    func raw(_ value: Int) -> String { String(decoding: view.raw(value), as: UTF8.self) }
    if isGroupOrDigest {
      // Its own members as they are; its records written out.
      for (key, value) in members {
        var text = raw(value)
        if key == "leading", view.kind(value) == .object {
          text = written(view, value) ?? text
        } else if key == "items", view.kind(value) == .array {
          var items: [String] = []
          view.forEachElement(of: value) { element in
            items.append(
              view.kind(element) == .object
                ? written(view, element) ?? raw(element) : raw(element))
          }
          text = "[" + items.joined(separator: ",") + "]"
        }
        parts.append("\"\(key)\":\(text)")
      }
      return "{" + parts.joined(separator: ",") + "}"
    }
    guard names.contains(RecordField.createdAt.key) else { return nil }
    let values = Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.value) })
    for field in RecordField.written {
      parts.append("\"\(field.key)\":\(values[field.key].map(raw) ?? "null")")
    }
    for (key, value) in members where !RecordField.written.contains(where: { $0.key == key }) {
      parts.append("\"\(key)\":\(raw(value))")
    }
    return "{" + parts.joined(separator: ",") + "}"
  }

  // MARK: - Comparing

  /// Each line of `output` that is JSON with its null members left out (but in a `payload`,
  /// which is the push as it came) and its keys sorted; every other line as it is. Of
  /// `diagnostics`, without their columns: `:3:7:` is `:3:`, `col=7` and `"column":7` go.
  static func normalized(_ output: Data, diagnostics: Bool = false) -> [String] {
    lines(String(decoding: output, as: UTF8.self)).map { line in
      guard line.first == "{",
        let object = try? JSONSerialization.jsonObject(
          with: Data(line.utf8), options: [.fragmentsAllowed]),
        let data = try? JSONSerialization.data(
          withJSONObject: withoutNulls(object, dropping: diagnostics ? "column" : nil),
          options: [.sortedKeys, .fragmentsAllowed])
      else {
        guard diagnostics else { return line }
        return line.replacingOccurrences(
          of: #"(:[0-9]+):[0-9]+:|,col=[0-9]+"#, with: "$1",
          options: String.CompareOptions.regularExpression)
      }
      return String(decoding: data, as: UTF8.self)
    }
  }

  static func withoutNulls(_ value: Any, dropping dropped: String? = nil) -> Any {
    if let object = value as? [String: Any] {
      var kept: [String: Any] = [:]
      for (key, member) in object where !(member is NSNull) && key != dropped {
        kept[key] = key == "payload" ? member : withoutNulls(member, dropping: dropped)
      }
      return kept
    }
    if let array = value as? [Any] { return array.map { withoutNulls($0, dropping: dropped) } }
    return value
  }
}
