// Fuzz target `responses`: notif-responses on a file of any bytes, read as answers of push
// services (every shape of notif(5), Responses: APNs, FCM, Web Push, Expo tickets, receipts and
// `data`, SNS delivery status lines with a providerResponse holding JSON, the apns2 command's
// line), with --summary, and the same bytes as its --tokens and --requests files. The input's
// last byte picks --attempt and --max-attempts, so that the back-off and its cap are reached.
//
// Properties:
//   (a) on a readable file it exits 0 or 1 (a line that is no answer is reported and skipped);
//       with the input also as --tokens and --requests, 2 only when one of those is refused;
//   (b) every line it writes is one JSON object whose keys begin source, token, request_id,
//       status, reason, action, why, retry_at, attempt, rule (then diagnostics with
//       --requests), in that order; the action is one of the eight, and retry_at is a time
//       exactly when the action is retry or slow_down;
//   (c) the summary line, last, counts as many answers as there are records before it.

let responseKeys = [
  "source", "token", "request_id", "status", "reason", "action", "why", "retry_at", "attempt",
  "rule",
]
let responseActions: Set<String> = [
  "delivered", "prune_token", "retry", "slow_down", "fix_payload", "fix_topic",
  "fix_credentials", "give_up",
]

func fuzzResponses(_ input: UnsafeRawBufferPointer) {
  let flags = Int(input.last ?? 0)
  let file = scratchFolder + "/responses.ndjson"
  writeFile(file, Array(input))
  let options = [
    "--now", "2026-11-26T10:00:00Z", "--summary", "--attempt", "\(1 + flags % 12)",
    "--max-attempts", "\(1 + flags / 16)", "--seed", "\(flags)",
  ]
  let (plain, status) = runTool(ResponsesCommand.self, options + [file], output: "responses.out")
  require(status != .failure, "notif-responses exits 2 on a readable file")
  checkResponseRecords(plain, diagnostics: false)

  let (joined, joinedStatus) = runTool(
    ResponsesCommand.self, options + ["--tokens", file, "--requests", file, file],
    output: "responses.out")
  if joinedStatus != .failure { checkResponseRecords(joined, diagnostics: true) }
}

/// Checks (b) and (c) on what notif-responses wrote.
func checkResponseRecords(_ output: [UInt8], diagnostics: Bool) {
  var lines = splitLines(output)
  require(!lines.isEmpty, "notif-responses --summary wrote nothing")
  let summary = lines.removeLast()
  var parser = JSONParser()
  summary.withUnsafeBytes { bytes in
    guard case .complete(let end) = parser.parse(bytes, isFinal: true), end == bytes.count else {
      fail("the summary is not one JSON text")
    }
    parser.withView(over: bytes) { view in
      guard let inner = view.member(0, "summary"), let count = view.member(inner, "responses"),
        let responses = view.integer(count)
      else { fail("the summary has no count of responses") }
      require(responses == lines.count, "the summary counts \(responses), not \(lines.count)")
    }
  }
  let keys = responseKeys + (diagnostics ? ["diagnostics"] : [])
  for line in lines {
    line.withUnsafeBytes { bytes in
      guard case .complete(let end) = parser.parse(bytes, isFinal: true), end == bytes.count
      else { fail("a record is not one JSON text: \(String(decoding: bytes, as: UTF8.self))") }
      parser.withView(over: bytes) { view in
        require(view.kind(0) == .object, "a record is not an object")
        var found: [String] = []
        view.forEachMember(of: 0) { key, _ in
          if found.count < keys.count { found.append(view.string(key)) }
        }
        require(found == keys, "a record's keys are \(found)")
        guard let action = view.member(0, "action").flatMap({ view.stringValue($0) }),
          responseActions.contains(action), let retryAt = view.member(0, "retry_at")
        else { fail("a record has no action of the eight") }
        let retries = action == "retry" || action == "slow_down"
        require(
          (view.kind(retryAt) == .string) == retries,
          "retry_at is \(view.kind(retryAt)) for \(action)")
      }
    }
  }
}
