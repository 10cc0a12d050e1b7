import Foundation
import NotifCLI
import NotifJSON
import NotifModel
import TestSupport

@testable import notif_digest

/// 2026-11-22T09:00:00Z.
let digestNow = "2026-11-22T09:00:00Z"

/// A record with the keys a digest reads.
func record(
  _ id: String, _ createdAt: String, app: String = "com.example.social", thread: String? = "t",
  category: String? = "like", actor: String? = nil, readAt: String? = nil,
  digestedAt: String? = nil
) -> String {
  func json(_ text: String?) -> String { text.map { "\"\($0)\"" } ?? "null" }
  var line =
    "{\"id\":\"\(id)\",\"app\":\"\(app)\",\"thread_id\":\(json(thread)),\"category\":\(json(category)),"
    + "\"created_at\":\"\(createdAt)\",\"body\":\"New activity\",\"summary_arg\":\(json(actor)),"
    + "\"read_at\":\(json(readAt)),"
    + "\"payload\":{\"user\":\"\(actor ?? "none")\"}"
  if let digestedAt { line += ",\"digested_at\":\"\(digestedAt)\"" }
  return line + "}"
}

/// What one run of notif-digest wrote: its status, standard output and standard error.
struct DigestOutcome {
  var status: ExitStatus
  var stdout: String
  var stderr: String

  /// Each line of standard output, parsed.
  var objects: [[String: Any]] {
    stdout.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }
}

/// Runs notif-digest in this process on `arguments`, in `folder` (files named relative to it),
/// with `input` as the file `in.ndjson` appended as the last operand unless `store` is set.
func digest(
  _ arguments: [String], input: [String]? = nil, in folder: URL? = nil,
  files: [String: String] = [:]
) throws -> DigestOutcome {
  let scratch = try folder ?? makeScratchFolder("notif-digest")
  defer { if folder == nil { try? FileManager.default.removeItem(at: scratch) } }
  for (name, text) in files {
    try Data(text.utf8).write(to: scratch.appendingPathComponent(name))
  }
  var arguments = arguments.map {
    $0.hasPrefix("@file:") ? scratch.appendingPathComponent(String($0.dropFirst(6))).path : $0
  }
  if let input {
    let path = scratch.appendingPathComponent("in.ndjson")
    try Data(input.map { $0 + "\n" }.joined().utf8).write(to: path)
    arguments.append(path.path)
  }
  let (status, out, err) = try capturingOutput { stdout, stderr in
    DigestCommand.run(
      environment: ToolEnvironment(arguments: arguments), stdout: &stdout, stderr: &stderr)
  }
  return DigestOutcome(status: status, stdout: out, stderr: err)
}
