import Foundation
import NotifCLI
import Testing

/// One option vocabulary (`OptionTable`): each name has one meaning in every tool, each tool
/// takes exactly the options the table gives it, and its `--help` lists them
/// (`BehaviorTests.optionsAgreeAcrossHelpManAndCompletions` holds the man page and the three
/// completions to `--help`). A name a tool took before is read as its new spelling with a
/// warning, or refused with the new spelling named, never reread silently.
@Suite struct OptionTableTests {
  @Test func eachNameAndLetterHasOneMeaning() {
    var meanings: [String: String] = [:]
    for entry in OptionTable.entries {
      #expect(meanings[entry.long] == nil, "--\(entry.long) is in the table twice")
      meanings[entry.long] = entry.meaning
    }
    var letters: [Character: String] = [:]
    for entry in OptionTable.entries {
      guard let short = entry.short else { continue }
      #expect(letters[short] == nil, "-\(short) is --\(letters[short] ?? "") and --\(entry.long)")
      letters[short] = entry.long
    }
  }

  @Test func theTableKnowsEveryTool() {
    #expect(
      Set(OptionTable.all.map { "notif-" + $0 }) == Set(BehaviorTests.tools),
      "OptionTable.all is not the tools in Sources")
    for entry in OptionTable.entries {
      #expect(Set(entry.tools).isSubset(of: OptionTable.all), "--\(entry.long)")
    }
  }

  @Test func aRenamedNameLeavesTheToolsThatTookIt() {
    for rename in OptionTable.renamed {
      let new = OptionTable.entries.first { $0.long == rename.new }
      #expect(new != nil, "--\(rename.new) is not in the table")
      for tool in rename.tools {
        #expect(new?.tools.contains(tool) == true, "notif-\(tool) lacks --\(rename.new)")
        #expect(
          !OptionTable.entries.contains { $0.long == rename.old && $0.tools.contains(tool) },
          "notif-\(tool) takes --\(rename.old) twice")
      }
      // A name kept for a release must mean nothing else anywhere: else it is read two ways.
      if rename.keepsMeaning {
        #expect(!OptionTable.entries.contains { $0.long == rename.old }, "--\(rename.old)")
      }
    }
  }

  /// `--help` lists exactly the table's options of the tool, no old name among them.
  @Test(arguments: BehaviorTests.tools)
  func helpListsTheTablesOptions(_ tool: String) throws {
    let help = try Binaries.run(
      tool, ["--help"], in: BehaviorTests.packageRoot, environment: BehaviorTests.environment)
    let text = String(decoding: help.stdout, as: UTF8.self)
    // The options column: lines that start with white space and a dash.
    let listed = Set(
      text.split(separator: "\n").compactMap { line -> String? in
        let trimmed = line.drop { $0 == " " }
        guard trimmed.hasPrefix("-"), trimmed.count < line.count else { return nil }
        let long = trimmed.split(separator: " ").first { $0.hasPrefix("--") }
        return long.map { String($0.dropFirst(2)) }
      })
    let name = String(tool.dropFirst("notif-".count))
    let table = Set(OptionTable.entries.filter { $0.tools.contains(name) }.map(\.long))
    let extra = listed.subtracting(table).sorted()
    let missing = table.subtracting(listed).sorted()
    #expect(listed == table, "\(tool): --help lists \(extra), lacks \(missing)")
  }

  /// notif-show's `--view` was only a spelling: still read, with a warning.
  @Test func anOldSpellingIsReadWithAWarning() throws {
    let folder = BehaviorTests.packageRoot
    let old = try Binaries.run(
      "notif-show", ["--now", "@0", "--view", "chat", "examples/inbox.ndjson"], in: folder,
      environment: BehaviorTests.environment)
    let new = try Binaries.run(
      "notif-show", ["--now", "@0", "--order", "chat", "examples/inbox.ndjson"], in: folder,
      environment: BehaviorTests.environment)
    #expect(old.status == new.status)
    #expect(old.stdout == new.stdout)
    let warning = String(decoding: old.stderr, as: UTF8.self)
    #expect(
      warning.hasPrefix(
        "notif-show: warning: '--view' is deprecated: it is '--order', as in every notif tool"),
      "\(warning)")
  }

  /// A name that means something else now is refused, naming the new spelling.
  @Test(arguments: [
    ("notif-group", ["--limit", "3"], "'--limit' is now '--item-limit' here"),
    ("notif-digest", ["--window", "1h", "--limit", "3"], "'--limit' is now '--item-limit' here"),
    ("notif-digest", ["--window", "1h", "--items", "last"], "'--items' is now '--item-end' here"),
    ("notif-digest", ["--merge", "--unread"], "'--unread' is now '--merge-unread' here"),
    ("notif-show", ["--format", "html"], "--format: 'html' is not text, github, json or sarif"),
    ("notif-show", ["--format=email"], "--format: 'email' is not text, github, json or sarif"),
    ("notif-parse", ["--app", "com.example"], "'--app' is now '--default-app' here"),
  ])
  func aNameThatMeansSomethingElseIsRefused(
    _ tool: String, _ arguments: [String], _ message: String
  ) throws {
    let outcome = try Binaries.run(
      tool, arguments, in: BehaviorTests.packageRoot, environment: BehaviorTests.environment)
    #expect(outcome.status == 2)
    let stderr = String(decoding: outcome.stderr, as: UTF8.self)
    #expect(stderr.hasPrefix("\(tool): \(message)"), "\(stderr)")
    #expect(outcome.stdout.isEmpty)
  }

  /// The README's "Common options" section is the table's options that two tools or more
  /// take, as `commonOptionsMarkdown` writes them.
  @Test func theReadmesCommonOptionsAreTheTable() throws {
    let readme = try String(
      contentsOf: BehaviorTests.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let start = "<!-- options: OptionTable; OptionTableTests checks it -->\n"
    let end = "<!-- end options -->"
    let section = readme.components(separatedBy: start).dropFirst().first?
      .components(separatedBy: end).first
    let expected = Self.commonOptionsMarkdown()
    #expect(section == expected, "README.md's common options should read:\n\(expected)")
  }

  /// The table of the options two tools or more take, in Markdown.
  static func commonOptionsMarkdown() -> String {
    var text = "| option | what it means | tools |\n| --- | --- | --- |\n"
    for entry in OptionTable.entries where entry.tools.count >= 2 {
      let short = entry.short.map { "`-\($0)`, " } ?? ""
      let argument = entry.argument.map { " \($0)" } ?? ""
      let tools =
        entry.tools.count == 8 ? "all" : entry.tools.joined(separator: ", ")
      let meaning = entry.meaning.replacingOccurrences(of: "|", with: "\\|")
      text += "| \(short)`--\(entry.long)\(argument)` | \(meaning) | \(tools) |\n"
    }
    return text
  }
}
