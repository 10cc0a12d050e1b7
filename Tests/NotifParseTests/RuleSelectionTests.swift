import Foundation
import NotifCLI
import NotifModel
import NotifPush
import Testing

@testable import notif_parse

/// `--select`, `--ignore` and `.notif-parse.json`: which rules a run checks.
@Suite struct RuleSelectionTests {
  @Test func everyRuleIsCheckedByDefault() {
    let selection = RuleSelection()
    #expect(selection.checksAll)
    #expect(Rule.allCases.allSatisfy(selection.checks))
  }

  /// A code stands for every rule with that code; an id for its rule; the rules of reading a
  /// text stay checked whatever is selected.
  @Test func aSelectionNamesRulesByIdOrCode() throws {
    let select = try RuleSelection.rules(["apns-badge,BadSound"], option: "select")
    #expect(select.contains(.apnsBadge))
    #expect(Set(Rule.rules(withCode: "BadSound")).isSubset(of: Set(select)))
    let selection = RuleSelection(select: select, ignore: [])
    #expect(!selection.checksAll)
    #expect(selection.checks(.apnsBadge))
    #expect(!selection.checks(.apnsAlertType))
    for rule in RuleSelection.reading { #expect(selection.checks(rule)) }
    #expect(RuleSelection.reading.contains(.jsonSyntax))
  }

  @Test func ignoreWinsOverSelect() throws {
    let selection = RuleSelection(
      select: [.apnsBadge, .apnsSound], ignore: Rule.rules(withCode: "BadSound"))
    #expect(selection.checks(.apnsBadge))
    #expect(!selection.checks(.apnsSound))
  }

  @Test func namesAreReadInAnyCaseAndCommasMaySeparateThem() throws {
    #expect(
      try RuleSelection.rules(["APNS-BADGE", "badbadge"], option: "select").first == .apnsBadge)
    #expect(throws: UsageError.self) { try RuleSelection.rules(["apns-badge,"], option: "select") }
    #expect(throws: UsageError.self) { try RuleSelection.rules(["-"], option: "ignore") }
  }

  @Test(arguments: [
    (
      ["--select", "apns-sond"],
      "--select: no rule or code 'apns-sond' in notif-rules(7); the nearest: apns-sound"
    ),
    (
      ["--ignore", "json-utf8"],
      "--ignore: 'json-utf8' cannot be ignored: json-utf8 is a rule of reading"
    ),
    (["--ignore", "DuplicateKey"], "--ignore: 'DuplicateKey' cannot be ignored"),
    (["--config", "a.json", "--no-config"], "--config and --no-config contradict each other"),
    (["--config", ""], "--config: the file name is empty"),
  ])
  func badSelectionsAreUsageErrors(_ arguments: [String], _ message: String) {
    do {
      _ = try ParseCommand.configure(arguments)
      Issue.record("\(arguments) was taken")
    } catch {
      #expect(error.message.hasPrefix(message), "\(error.message)")
    }
  }

  @Test func theCommandLineReplacesSelectAndAddsToIgnore() throws {
    let configuration = try ParseCommand.configure([
      "--select", "apns-badge", "--ignore", "apns-sound", "--ignore", "BadBadge",
    ])
    #expect(configuration.select == [.apnsBadge])
    #expect(configuration.ignore.first == .apnsSound)
    #expect(configuration.ignore.contains(.apnsBadge))
    #expect(try ParseCommand.configure([]).select == nil)
  }

  // MARK: - The configuration file

  private func scratch(_ body: (URL) throws -> Void) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "notif-config-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try body(folder.resolvingSymlinksInPath())
  }

  @Test func theNearestFileHereOrAboveIsFound() throws {
    try scratch { root in
      let deep = root.appendingPathComponent("a/b/c")
      try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
      let top = root.appendingPathComponent(ParseConfigFile.name)
      try Data("{}".utf8).write(to: top)
      #expect(ParseConfigFile.discover(from: deep.path) == top.path)
      #expect(ParseConfigFile.discover(from: deep.path + "/") == top.path)
      let middle = root.appendingPathComponent("a/\(ParseConfigFile.name)")
      try Data("{}".utf8).write(to: middle)
      #expect(ParseConfigFile.discover(from: deep.path) == middle.path)
      // A folder of that name is not the file.
      try FileManager.default.createDirectory(
        at: deep.appendingPathComponent(ParseConfigFile.name), withIntermediateDirectories: true)
      #expect(ParseConfigFile.discover(from: deep.path) == middle.path)
    }
  }

  @Test func theFileGivesSelectAndIgnore() throws {
    try scratch { root in
      let path = root.appendingPathComponent("c.json").path
      try Data(#"{"select": ["BadBadge", "apns-sound"], "ignore": ["apns-sound"]}"#.utf8)
        .write(to: URL(fileURLWithPath: path))
      let file = try ParseConfigFile.load(path)
      #expect(file.select?.contains(.apnsBadge) == true)
      #expect(file.ignore == [.apnsSound])
      try Data("{}".utf8).write(to: URL(fileURLWithPath: path))
      #expect(try ParseConfigFile.load(path) == ParseConfigFile())
    }
  }

  @Test(arguments: [
    (#"{"selct": []}"#, 1, 2, "BadConfig", "unknown key 'selct'"),
    (#"{"ignore": "apns-badge"}"#, 1, 12, "BadConfig", "'ignore' is a string, not an array"),
    ("{\"ignore\": [\n  true]}", 2, 3, "BadConfig", "an item of 'ignore' is a boolean"),
    (#"{"ignore": ["json-nesting"]}"#, 1, 13, "BadConfig", "'ignore': 'json-nesting' cannot be"),
    (#"{"select": ["nope"]}"#, 1, 13, "BadConfig", "'select': no rule or code 'nope'"),
    (#"{"select": [], "select": []}"#, 1, 16, "DuplicateKey", "duplicate key"),
    ("[]", 1, 1, "BadConfig", "a notif-parse configuration is one JSON object"),
  ])
  func aBrokenFileIsReportedAtItsPlace(
    _ text: String, _ line: Int, _ column: Int, _ code: String, _ message: String
  ) throws {
    try scratch { root in
      let path = root.appendingPathComponent("c.json").path
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
      do {
        _ = try ParseConfigFile.load(path)
        Issue.record("\(text) was taken")
      } catch {
        let diagnostic = try #require(error as? ConfigFileError).diagnostic
        #expect(diagnostic.code == code)
        #expect(diagnostic.file == path)
        #expect(diagnostic.line == line && diagnostic.column == column, "\(diagnostic)")
        #expect(diagnostic.message.hasPrefix(message), "\(diagnostic.message)")
      }
    }
  }
}
