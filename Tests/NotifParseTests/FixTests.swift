import NotifCLI
import NotifJSON
import NotifModel
import NotifPush
import Testing

@testable import notif_parse

/// `--fix`: over generated payloads, a repair leaves every text JSON, takes away the finding
/// it repairs and no other, and a second pass finds nothing left to repair.
@Suite struct FixTests {
  /// A small deterministic generator (SplitMix64), so that a failure names its seed.
  struct Generator {
    var state: UInt64

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }

    mutating func pick<T>(_ choices: [T]) -> T { choices[Int(next() % UInt64(choices.count))] }
  }

  /// A payload with some of the values the fixes repair, and some they must leave alone, laid
  /// out in one of several ways; sometimes inside an SNS message's APNS string.
  static func payload(_ random: inout Generator) -> String {
    var members: [String] = [#""alert": "Hi""#]
    let flags = ["true", "false", "1", "0"]
    if random.next() % 2 == 0 { members.append(#""content-available": "# + random.pick(flags)) }
    if random.next() % 2 == 0 { members.append(#""mutable-content": "# + random.pick(flags)) }
    if random.next() % 2 == 0 {
      members.append(
        #""badge": "# + random.pick([#""5""#, #""0""#, "7", #""x""#, #""99999999999999999999""#]))
    }
    if random.next() % 2 == 0 {
      members.append(#""sound": {"name": "a.caf", "critical": "# + random.pick(flags) + "}")
    }
    let space = random.pick(["", " ", "\n  ", "\r\n\t"])
    let aps = "{" + space + members.joined(separator: "," + space) + "}"
    let text = #"{"aps": "# + aps + #", "id": "x"}"#
    guard random.next() % 3 == 0 else { return text }
    // Inside an SNS string: the payload escaped, as SNS carries it.
    var escaped = ByteBuffer(capacity: 256)
    var copy = text
    copy.withUTF8 { JSONEscapes.appendEscaped(UnsafeRawBufferPointer($0), into: &escaped) }
    return #"{"default": "Hi", "APNS": ""# + escaped.text + #""}"#
  }

  static func processor(fixing: Set<FixSafety>) throws -> RecordProcessor {
    var configuration = try ParseCommand.configure(["--check"])
    configuration.check = true
    var processor = RecordProcessor(configuration: configuration, registry: nil)
    processor.fixing = fixing
    return processor
  }

  static func diagnostics(_ bytes: [UInt8]) throws -> (rules: [String: Int], tally: Tally) {
    var checking = try processor(fixing: [])
    let configuration = try ParseCommand.configure(["--check"])
    let (found, tally) = FixRun.check(bytes, name: "t", with: &checking, configuration)
    var rules: [String: Int] = [:]
    for diagnostic in found.list { rules[diagnostic.rule ?? diagnostic.code, default: 0] += 1 }
    return (rules, tally)
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
  func aFixRepairsWhatItFoundAndNothingElse(seed: UInt64) throws {
    var random = Generator(state: seed)
    let configuration = try ParseCommand.configure(["--check"])
    var made = 0
    for round in 0..<150 {
      let lines = (0..<3).map { _ in Self.payload(&random) }
      let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
      var gathering = try Self.processor(fixing: [.safe, .unsafe])
      _ = FixRun.check(bytes, name: "t", with: &gathering, configuration)
      let edits = FixRun.edits(gathering.fixes)
      made += edits.count
      #expect(edits.count == gathering.fixes.count, "seed \(seed) round \(round): overlapping")
      let fixed = FixRun.apply(edits, to: bytes)
      let before = try Self.diagnostics(bytes)
      let after = try Self.diagnostics(fixed)
      let text = String(decoding: bytes, as: UTF8.self)
      // Every text is still read, and as JSON: no new diagnostic of reading.
      #expect(after.tally.records == before.tally.records, "\(text)")
      #expect(after.tally.rejected <= before.tally.rejected, "\(text)")
      // Each rule's findings are fewer by the repairs of that rule, and the others the same.
      var repaired: [String: Int] = [:]
      for finding in gathering.fixes { repaired[finding.rule.id, default: 0] += 1 }
      for (rule, count) in before.rules.merging(after.rules, uniquingKeysWith: { a, _ in a }) {
        let expected = (before.rules[rule] ?? 0) - (repaired[rule] ?? 0)
        #expect(after.rules[rule] ?? 0 == expected, "\(rule) of \(count) in \(text)")
      }
      // A second pass has nothing to repair.
      var again = try Self.processor(fixing: [.safe, .unsafe])
      _ = FixRun.check(fixed, name: "t", with: &again, configuration)
      #expect(
        again.fixes.isEmpty, "a second --fix repairs \(String(decoding: fixed, as: UTF8.self))")
    }
    #expect(made > 100, "seed \(seed): only \(made) repairs in 150 rounds")
  }

  /// Without `--unsafe-fixes` only the safe repairs are made.
  @Test func theSafeTierLeavesTheUnsafeFixes() throws {
    let bytes = Array(#"{"aps": {"alert": "a", "badge": "5", "content-available": true}}"#.utf8)
    var gathering = try Self.processor(fixing: [.safe])
    _ = FixRun.check(
      bytes, name: "t", with: &gathering, try ParseCommand.configure(["--check"]))
    let fixed = FixRun.apply(FixRun.edits(gathering.fixes), to: bytes)
    #expect(
      String(decoding: fixed, as: UTF8.self)
        == #"{"aps": {"alert": "a", "badge": "5", "content-available": 1}}"#)
  }

  @Test func theDiffIsWhatPatchReads() {
    let old = Array("a\nb\n\"x\": true\nc\n".utf8)
    let new = Array("a\nb\n\"x\": 1\nc\n".utf8)
    #expect(
      FixRun.unifiedDiff(old, new, name: "f.json")
        == "--- f.json\n+++ f.json\n@@ -1,4 +1,4 @@\n a\n b\n-\"x\": true\n+\"x\": 1\n c\n")
    #expect(FixRun.unifiedDiff(old, old, name: "f.json").isEmpty)
    let noEnd = FixRun.unifiedDiff(Array("true".utf8), Array("1".utf8), name: "f")
    #expect(
      noEnd
        == "--- f\n+++ f\n@@ -1 +1 @@\n-true\n\\ No newline at end of file\n+1\n"
        + "\\ No newline at end of file\n")
  }
}
