// Fuzz target `fix`: `notif-parse --fix --unsafe-fixes` on a file of push messages, as
// `FixRun` does it: the repairs the findings offer, gathered over the bytes by
// `RecordProcessor`, made by `FixRun.apply`; the platform from the input's last byte. The
// seeds are the payloads the apns target reads and fuzz/seeds/fix/, with the repaired values.
//
// Properties:
//   (a) the repairs are apart and inside the input (`FixRun.edits` drops none);
//   (b) the repaired bytes are read as the same number of texts, none of them rejected where
//       the original was not, and with no more diagnostics of reading (JSON syntax, UTF-8, ...)
//       than the original: a repair never writes invalid JSON;
//   (c) each rule's diagnostics are fewer by the repairs of that rule, and no other changes;
//   (d) a second pass finds nothing to repair, and lines are neither added nor removed.

func fuzzFix(_ input: UnsafeRawBufferPointer) {
  let flags = input.last ?? 0
  var configuration = ParseCommand.Configuration(
    defaults: InputDefaults(
      app: nil, pushType: nil, now: Timestamp(seconds: 1_795_338_000),
      platform: Platform.allCases[Int(flags >> 3) % Platform.allCases.count]))
  configuration.check = true
  configuration.maxRecordBytes = 4096
  let bytes = Array(input)

  func pass(_ bytes: [UInt8], fixing: Set<FixSafety>) -> (
    fixes: [Finding], rules: [String: Int], tally: Tally
  ) {
    var processor = RecordProcessor(configuration: configuration, registry: nil)
    processor.fixing = fixing
    let (found, tally) = FixRun.check(bytes, name: "<fuzz>", with: &processor, configuration)
    var rules: [String: Int] = [:]
    for diagnostic in found.list { rules[diagnostic.rule ?? diagnostic.code, default: 0] += 1 }
    return (processor.fixes, rules, tally)
  }

  let before = pass(bytes, fixing: [.safe, .unsafe])
  let edits = FixRun.edits(before.fixes)
  require(edits.count == before.fixes.count, "repairs overlap: \(before.fixes)")
  for edit in edits {
    require(edit.start >= 0 && edit.end <= bytes.count, "a repair outside the input: \(edit)")
  }
  guard !edits.isEmpty else { return }
  let fixed = FixRun.apply(edits, to: bytes)
  let after = pass(fixed, fixing: [.safe, .unsafe])
  require(after.tally.records == before.tally.records, "the repaired texts are counted otherwise")
  require(after.tally.rejected <= before.tally.rejected, "a repair rejects a text")
  let reading = Set(RuleSelection.reading.map(\.id))
  let readingBefore = before.rules.filter { reading.contains($0.key) }.values.reduce(0, +)
  let readingAfter = after.rules.filter { reading.contains($0.key) }.values.reduce(0, +)
  require(readingAfter <= readingBefore, "a repair wrote text that is not read as JSON")
  var repaired: [String: Int] = [:]
  for finding in before.fixes { repaired[finding.rule.id, default: 0] += 1 }
  for rule in Set(before.rules.keys).union(after.rules.keys) {
    let expected = (before.rules[rule] ?? 0) - (repaired[rule] ?? 0)
    require(
      after.rules[rule] ?? 0 == expected,
      "\(rule): \(before.rules[rule] ?? 0) before, \(repaired[rule] ?? 0) repaired, "
        + "\(after.rules[rule] ?? 0) after")
  }
  require(after.fixes.isEmpty, "a second pass repairs again: \(after.fixes)")
  require(
    fixed.filter { $0 == 0x0A }.count == bytes.filter { $0 == 0x0A }.count,
    "a repair added or removed a line")
}
