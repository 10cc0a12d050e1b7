import Foundation
import NotifJSON
import NotifModel
import TestSupport
import Testing

/// The diagnostic `ConfigFile` gives for `text` read as a policy whose reader accepts anything.
private func problem(_ text: [UInt8]) -> Diagnostic? {
  do {
    try ConfigFile(path: "p.json", bytes: text).interpret(as: "a policy", code: "BadPolicy") {
      _ throws(ConfigFile.Rejection) in ()
    }
    return nil
  } catch {
    return error.diagnostic
  }
}

@Suite struct ConfigFileTests {
  @Test(arguments: [
    ("", "InvalidJSON", 1, 1, "the file is empty: a policy is one JSON object"),
    (" \n\t\n", "InvalidJSON", 3, 1, "the file is empty: a policy is one JSON object"),
    ("{\"a\": 1,\n}", "InvalidJSON", 1, 8, "trailing comma before '}'"),
    ("{\"a\": 1,\n \"a\": 2}", "DuplicateKey", 2, 2, "duplicate key 'a'"),
    ("{} {}", "InvalidJSON", 1, 4, "a policy is one JSON object; more text follows it"),
    ("{}\n\n x", "InvalidJSON", 3, 2, "a policy is one JSON object; more text follows it"),
    ("\n [1]", "BadPolicy", 2, 2, "a policy is one JSON object, not an array"),
    ("\"x\"", "BadPolicy", 1, 1, "a policy is one JSON object, not a string"),
    ("{\"é\": [1,}", "InvalidJSON", 1, 10, "expected a JSON value, found '}'"),
  ])
  func everyErrorHasTheFileLineColumnAndOneCode(
    _ text: String, _ code: String, _ line: Int, _ column: Int, _ message: String
  ) {
    #expect(
      problem(Array(text.utf8))
        == Diagnostic(.error, code, message, file: "p.json", line: line, column: column))
  }

  @Test func invalidUTF8HasTheParsersCodeAndPosition() {
    #expect(
      problem([0x7B, 0x0A, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D])
        == Diagnostic(
          .error, "InvalidUTF8", "invalid UTF-8 byte 0xFF", file: "p.json", line: 2, column: 2))
  }

  @Test func aByteOrderMarkIsSkippedAndNotCounted() throws {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    #expect(problem(bom + Array("{}".utf8)) == nil)
    #expect(problem(bom + Array("[]".utf8))?.column == 1)
    #expect(problem(bom + Array(" {\"a\" 1}".utf8))?.column == 7)
  }

  @Test func aRejectionIsPlacedAtItsValue() {
    let file = ConfigFile(path: "p.json", bytes: Array("{\n  \"ttl\": \"7\"\n}".utf8))
    #expect(
      throws: ConfigFileError(
        Diagnostic(.error, "BadPolicy", "no unit", file: "p.json", line: 2, column: 10))
    ) {
      try file.interpret(as: "a policy", code: "BadPolicy") { view throws(ConfigFile.Rejection) in
        guard let value = view.member(0, "ttl") else { return }
        throw ConfigFile.Rejection(offset: Int(view.tokens[value].start), message: "no unit")
      }
    }
  }

  @Test func aMissingFileOrAFolderIsUnreadable() throws {
    #expect(
      throws: ConfigFileError(
        Diagnostic(
          .error, "Unreadable", "cannot open: no such file or directory", file: "/nonexistent/p"))
    ) {
      _ = try ConfigFile(path: "/nonexistent/p")
    }
    let folder = try makeScratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(
      throws: ConfigFileError(
        Diagnostic(.error, "Unreadable", "read error: is a directory", file: folder.path))
    ) {
      _ = try ConfigFile(path: folder.path)
    }
  }
}
