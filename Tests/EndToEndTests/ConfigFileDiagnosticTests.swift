import Foundation
import Testing

/// Every tool reads its JSON configuration files with one loader (NotifModel's `ConfigFile`):
/// the same broken file gives the same position and code from every tool that reads it.
@Suite struct ConfigFileDiagnosticTests {
  /// A broken file's bytes, and the diagnostic after `PROG: FILE` that every reader gives.
  struct Broken: CustomStringConvertible, Sendable {
    var name: String
    var bytes: [UInt8]?  // nil: no file
    var diagnostic: String
    var description: String { name }
  }

  static let broken: [Broken] = [
    Broken(
      name: "trailing comma",
      bytes: Array(
        "{\n  \"message\": {\n    \"category_summary_format\": \"%u more\",\n  }\n}\n".utf8),
      diagnostic: ":3:41: error: trailing comma before '}' [InvalidJSON]"),
    Broken(
      name: "duplicate key",
      bytes: Array("{\n  \"message\": {},\n  \"message\": {}\n}\n".utf8),
      diagnostic: ":3:3: error: duplicate key 'message' [DuplicateKey]"),
    Broken(
      name: "invalid UTF-8",
      bytes: Array("{\n  \"caf".utf8) + [0xE9] + Array("\": {}\n}\n".utf8),
      diagnostic: ":2:7: error: invalid UTF-8 byte 0xE9 [InvalidUTF8]"),
    Broken(
      name: "missing file", bytes: nil,
      diagnostic: ": error: cannot open: no such file or directory [Unreadable]"),
  ]

  /// Each tool and option that reads a JSON configuration file, with the file's extension.
  static let readers: [(tool: String, arguments: [String], file: String)] = [
    ("notif-parse", ["--check", "--categories"], "broken.json"),
    ("notif-summarize", ["--categories"], "broken.json"),
    ("notif-expire", ["--policy"], "broken.json"),
    ("notif-summarize", ["--strings"], "broken.xcstrings"),
    ("notif-show", ["--apps"], "broken.json"),
  ]

  @Test(arguments: broken)
  func everyReaderGivesTheSameDiagnostic(_ broken: Broken) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "notif-config-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for reader in Self.readers {
      if let bytes = broken.bytes {
        try Data(bytes).write(to: folder.appendingPathComponent(reader.file))
      }
      let outcome = try Binaries.run(
        reader.tool, reader.arguments + [reader.file], in: folder,
        environment: ["TZ": "UTC", "LC_ALL": "C"])
      let prefix = "\(reader.tool): \(reader.file)"
      let stderr = String(decoding: outcome.stderr, as: UTF8.self)
      let shown = "\(reader.tool) \(reader.arguments.joined(separator: " ")) \(reader.file)"
      #expect(stderr.hasPrefix(prefix), "\(shown)")
      #expect(stderr.dropFirst(prefix.count) == broken.diagnostic + "\n", "\(shown)")
      #expect(outcome.stdout.isEmpty, "\(shown)")
      #expect(outcome.status == 2, "\(shown)")
    }
  }
}
