import Foundation
import Testing

@testable import NotifLocalization
@testable import notif_summarize

private let russianStringsDict = """
  <?xml version="1.0" encoding="UTF-8"?>
  <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
  <plist version="1.0">
  <dict>
    <key>%u more messages from %@</key>
    <dict>
      <key>NSStringLocalizedFormatKey</key>
      <string>%1$#@messages@ от %2$@</string>
      <key>messages</key>
      <dict>
        <key>NSStringFormatSpecTypeKey</key>
        <string>NSStringPluralRuleType</string>
        <key>NSStringFormatValueTypeKey</key>
        <string>u</string>
        <key>one</key>
        <string>ещё %u сообщение</string>
        <key>few</key>
        <string>ещё %u сообщения</string>
        <key>many</key>
        <string>ещё %u сообщений</string>
        <key>other</key>
        <string>ещё %u сообщения</string>
      </dict>
    </dict>
  </dict>
  </plist>
  """

private let catalog = """
  {
    "sourceLanguage" : "en",
    "strings" : {
      "%u more messages from %@" : {
        "localizations" : {
          "pl" : {
            "stringUnit" : { "state" : "translated", "value" : "%#@messages@ od %@" },
            "substitutions" : {
              "messages" : {
                "argNum" : 1,
                "formatSpecifier" : "u",
                "variations" : {
                  "plural" : {
                    "one" : { "stringUnit" : { "state" : "translated", "value" : "jeszcze %arg wiadomość" } },
                    "few" : { "stringUnit" : { "state" : "translated", "value" : "jeszcze %arg wiadomości" } },
                    "many" : { "stringUnit" : { "state" : "translated", "value" : "jeszcze %arg wiadomości" } },
                    "other" : { "stringUnit" : { "state" : "translated", "value" : "jeszcze %arg wiadomości" } }
                  }
                }
              }
            }
          },
          "ja" : { "stringUnit" : { "state" : "translated", "value" : "%2$@から他%1$u件のメッセージ" } }
        }
      },
      "%u more episodes" : {
        "localizations" : {
          "fr" : {
            "variations" : {
              "plural" : {
                "one" : { "stringUnit" : { "state" : "translated", "value" : "%u autre épisode" } },
                "other" : { "stringUnit" : { "state" : "translated", "value" : "%u autres épisodes" } }
              }
            }
          }
        }
      }
    },
    "version" : "1.0"
  }
  """

private func messages(count: Int) -> [(String?, String?, Int)] {
  [("message", "Me", 1)]
    + (0..<count).map { ("message", ["Alice", "Bob"][$0 % 2], 1) as (String?, String?, Int) }
}

private func summary(_ summarizer: Summarizer, _ records: [(String?, String?, Int)]) -> String? {
  var fallbacks: Fallbacks = []
  return summarizer.summary(group(records), fallbacks: &fallbacks)
}

struct LocalizedStringsTests {
  @Test(arguments: [
    (1, "ещё 1 сообщение от Alice"), (2, "ещё 2 сообщения от Alice и Bob"),
    (5, "ещё 5 сообщений от Alice и Bob"), (21, "ещё 21 сообщение от Alice и Bob"),
    (22, "ещё 22 сообщения от Alice и Bob"), (25, "ещё 25 сообщений от Alice и Bob"),
  ])
  func stringsDictPluralsFollowRussianRules(count: Int, expected: String) throws {
    let folder = try scratch(["ru.lproj/Localizable.stringsdict": russianStringsDict])
    defer { try? FileManager.default.removeItem(at: folder) }
    let russian = try summarizer(locale: "ru", strings: [folder.path])
    #expect(summary(russian, messages(count: count)) == expected)
  }

  @Test func anLprojFileForAnotherLanguageIsNotUsed() throws {
    let folder = try scratch(["ru.lproj/Localizable.stringsdict": russianStringsDict])
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("ru.lproj/Localizable.stringsdict").path
    let german = try summarizer(locale: "de", strings: [path])
    #expect(summary(german, messages(count: 2)) == "2 more messages from Alice und Bob")
    #expect(german.warnings.count == 8)
    let russian = try summarizer(locale: "ru-RU", strings: [path])
    #expect(summary(russian, messages(count: 2)) == "ещё 2 сообщения от Alice и Bob")
  }

  @Test(arguments: [
    ("pl", 1, "jeszcze 1 wiadomość od Alice"), ("pl", 2, "jeszcze 2 wiadomości od Alice i Bob"),
    ("pl", 5, "jeszcze 5 wiadomości od Alice i Bob"),
    ("ja", 3, "Alice、Bobから他3件のメッセージ"),
  ])
  func catalogsUseSubstitutionsAndPositions(locale: String, count: Int, expected: String) throws {
    let folder = try scratch(["Localizable.xcstrings": catalog])
    defer { try? FileManager.default.removeItem(at: folder) }
    let localized = try summarizer(
      locale: locale, strings: [folder.appendingPathComponent("Localizable.xcstrings").path])
    #expect(summary(localized, messages(count: count)) == expected)
  }

  @Test func catalogPluralVariationsChooseByTheCount() throws {
    let folder = try scratch(["Localizable.xcstrings": catalog])
    defer { try? FileManager.default.removeItem(at: folder) }
    let french = try summarizer(locale: "fr-CA", strings: [folder.path])
    let one: [(String?, String?, Int)] = [("episode", nil, 1), ("episode", nil, 1)]
    #expect(summary(french, one) == "1 autre épisode")
    #expect(summary(french, one + [("episode", nil, 2)]) == "3 autres épisodes")
  }

  @Test(arguments: [
    (
      "<plist version=\"1.0\">\n<dict>\n  <key>a</key>\n  <string>x</strin>\n</dict>\n</plist>\n",
      StringsError(
        file: "x.stringsdict", line: 4,
        message:
          "not a valid property list: closing tag '</strin>' does not match '<string>' of line 4")
    ),
    (
      "<plist version=\"1.0\">\n<dict>\n  <key>a</key>\n  <dict>\n",
      StringsError(
        file: "x.stringsdict", line: 5,
        message: "not a valid property list: '<dict>' of line 4 is never closed")
    ),
    (
      "<plist version=\"1.0\">\n<dict>\n  <key>a</key>\n  <string>x</string>\n</dict>\n</plist>\n",
      StringsError(file: "x.stringsdict", line: 3, message: "entry 'a' must be a dictionary")
    ),
    (
      "<plist version=\"1.0\">\n<dict>\n  <key>a</key>\n  <dict>\n  </dict>\n</dict>\n</plist>\n",
      StringsError(
        file: "x.stringsdict", line: 3,
        message: "entry 'a' has no NSStringLocalizedFormatKey string")
    ),
    (
      """
      <plist version="1.0">
      <dict>
        <key>a</key>
        <dict>
          <key>NSStringLocalizedFormatKey</key>
          <string>%#@n@</string>
          <key>n</key>
          <dict>
            <key>NSStringFormatSpecTypeKey</key>
            <string>NSStringPluralRuleType</string>
            <key>one</key>
            <string>%u x</string>
          </dict>
        </dict>
      </dict>
      </plist>
      """,
      StringsError(
        file: "x.stringsdict", line: 7, message: "variable 'n' of 'a' has no 'other' variant")
    ),
    (
      "<plist version=\"1.0\">\n<dict>\n  <key>a</key>\n  <string>é &#xZZ;</string>\n</dict>\n</plist>\n",
      StringsError(
        file: "x.stringsdict", line: 4,
        message:
          "not a valid property list: bad character reference '&#xZZ;': write '&#' and decimal digits or '&#x' and hex digits, then ';'",
        column: 13)
    ),
    (
      "<plist version=\"1.0\">\n<dict>\n  <key>a &nbsp;</key>\n  <string>x</strin>\n</dict>\n</plist>\n",
      StringsError(
        file: "x.stringsdict", line: 3,
        message:
          "not a valid property list: unknown entity '&nbsp;': a property list knows only &amp; &lt; &gt; &quot; &apos;",
        column: 10)
    ),
  ])
  func malformedStringsDictsNameTheLine(text: String, error: StringsError) throws {
    let folder = try scratch(["x.stringsdict": text])
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("x.stringsdict").path
    var expected = error
    expected.file = path
    #expect(throws: expected) { try StringsDictFile.load(path) }
  }

  @Test(arguments: [
    ("&amp;", nil), ("&lt;", nil), ("&gt;", nil), ("&quot;", nil), ("&apos;", nil),
    ("&#65;", nil), ("&#x41;", nil), ("&#x1F600;", nil), ("&#9;", nil), ("&#x10FFFF;", nil),
    ("&amp", "'&amp' is not a reference: write '&amp;' for '&'"),
    ("& x", "'&' is not a reference: write '&amp;' for '&'"),
    ("&nbsp;", "unknown entity '&nbsp;': a property list knows only &amp; &lt; &gt; &quot; &apos;"),
    (
      "&#xZZ;",
      "bad character reference '&#xZZ;': write '&#' and decimal digits or '&#x' and hex digits, then ';'"
    ),
    (
      "&#X41;",
      "bad character reference '&#X41;': write '&#' and decimal digits or '&#x' and hex digits, then ';'"
    ),
    ("&#0;", "bad character reference '&#0;': it names no character XML allows"),
    ("&#xD800;", "bad character reference '&#xD800;': it names no character XML allows"),
    ("&#1114112;", "bad character reference '&#1114112;': it names no character XML allows"),
    ("&#xFFFE;", "bad character reference '&#xFFFE;': it names no character XML allows"),
  ])
  func referencesNameACharacterXMLAllows(_ text: String, _ problem: String?) {
    #expect(XMLShape.badReference(Array(text.utf8), at: 0) == problem)
  }

  @Test(arguments: [
    (
      "{\"strings\": {\n\"a\": 3}}",
      StringsError(file: "", line: 2, message: "string 'a' must be an object", column: 6)
    ),
    (
      "{\"strings\": {\"a\": {\n\"localizations\": {\"en\": {\n\"variations\": {\"plural\": {\"one\": {}}}}}}}}",
      StringsError(
        file: "", line: 3, message: "plural variant 'one' of 'a' has no 'stringUnit'", column: 34)
    ),
    (
      "{\"strings\": {\"a\": {\"localizations\": {\"en\": {\"variations\": {\"plural\":\n {\"one\": {\"stringUnit\": {\"value\": \"x\"}}}}}}}}}",
      StringsError(
        file: "", line: 2, message: "'plural' of 'a' has no 'other' variant", column: 2)
    ),
    (
      "{\"strings\": {\"a\": {\"localizations\": {\"en\": {\"variations\": {\"plural\": {\n\"few\": {}, \"lots\": {}}}}}}}}",
      StringsError(
        file: "", line: 2, message: "plural variant 'few' of 'a' has no 'stringUnit'", column: 8)
    ),
    (
      "{\"strings\": {\"a\": {\"localizations\": {\"en\": {\"variations\": {\"plural\": {\n\"lots\": {}}}}}}}}",
      StringsError(
        file: "", line: 2,
        message: "unknown plural category 'lots' in 'a': use zero, one, two, few, many or other",
        column: 1)
    ),
    (
      "{\"strings\": {\n\"a\": ",
      StringsError(
        file: "", line: 2, message: "unexpected end of input inside an object", column: 6,
        code: "InvalidJSON")
    ),
    (
      "{\"version\": \"1.0\"}",
      StringsError(
        file: "", line: 1, message: "a string catalog needs a 'strings' object", column: 1)
    ),
  ])
  func malformedCatalogsNameTheLine(text: String, error: StringsError) throws {
    let folder = try scratch(["x.xcstrings": text])
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("x.xcstrings").path
    var expected = error
    expected.file = path
    #expect(throws: expected) { try XCStringsFile.load(path, locale: try CLDRLocale("en")) }
  }
}

/// The strings files of the golden cases, rendered for every count up to a few hundred: a group
/// object never asks for 0, so the `zero` variants are checked here.
struct GoldenStringsTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("EndToEndTests/Fixtures/notif-summarize")

  private func messages(_ locale: String) throws -> LocalizedFormat {
    let categories = try String(
      contentsOf: Self.folder.appendingPathComponent("categories.json"), encoding: .utf8)
    let prepared = try summarizer(
      locale: locale, categories: categories,
      strings: [Self.folder.appendingPathComponent("strings").path])
    return try #require(prepared.categories[Array("message".utf8)]?.hidden)
  }

  @Test(arguments: [
    (
      "ar",
      [
        0: "لا رسائل", 1: "رسالة واحدة", 2: "رسالتان", 3: "3 رسائل", 10: "10 رسائل", 11: "11 رسالةً",
        99: "99 رسالةً", 100: "100 رسالة", 101: "101 رسالة", 103: "103 رسائل", 111: "111 رسالةً",
      ]
    ),
    (
      "cy",
      [
        0: "dim negeseuon", 1: "1 neges", 2: "dwy neges", 3: "tair neges", 4: "4 neges",
        5: "5 neges",
        6: "chwe neges", 7: "7 neges", 100: "100 neges",
      ]
    ),
    (
      "ru",
      [
        0: "0 сообщений", 1: "1 сообщение", 2: "2 сообщения", 5: "5 сообщений", 11: "11 сообщений",
        21: "21 сообщение", 22: "22 сообщения", 25: "25 сообщений", 101: "101 сообщение",
      ]
    ),
    (
      "pl",
      [
        0: "0 nowych wiadomości", 1: "1 nowa wiadomość", 2: "2 nowe wiadomości",
        5: "5 nowych wiadomości",
        12: "12 nowych wiadomości", 22: "22 nowe wiadomości", 25: "25 nowych wiadomości",
      ]
    ),
    ("fr", [0: "0 message", 1: "1 message", 2: "2 messages", 1_000_000: "1000000 de messages"]),
    ("ja", [0: "0件のメッセージ", 1: "1件のメッセージ", 2: "2件のメッセージ"]),
  ])
  func everyPluralCategoryOfTheGoldenFiles(locale: String, expected: [Int: String]) throws {
    let format = try messages(locale)
    for (count, text) in expected {
      #expect(format.render(count) == text, "\(locale) \(count)")
    }
  }
}

struct StringsFileTests {
  private func load(_ bytes: [UInt8]) throws -> [String: String] {
    let folder = try scratch([:])
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("Localizable.strings")
    try Data(bytes).write(to: url)
    return try StringsFile.load(url.path).mapValues(\.format)
  }

  @Test func pairsCommentsAndEscapes() throws {
    let text = """
      /* A comment
         over lines */
      "%u more messages" = "%u weitere Nachrichten"; // after
      "quote" = "say \\"hi\\"\\n\\ttab \\\\ \\U00e9\\UD83D\\UDE00";
      bare_key = bare.value;
      "quote" = "the first one wins";
      """
    #expect(
      try load(Array(text.utf8)) == [
        "%u more messages": "%u weitere Nachrichten", "quote": "say \"hi\"\n\ttab \\ é😀",
        "bare_key": "bare.value",
      ])
  }

  @Test func utf16WithAByteOrderMark() throws {
    let text = "\"a\" = \"ä\";\n"
    let little: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    let big: [UInt8] = [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    #expect(try load(little) == ["a": "ä"])
    #expect(try load(big) == ["a": "ä"])
    #expect(try load([0xEF, 0xBB, 0xBF] + Array(text.utf8)) == ["a": "ä"])
  }

  @Test(arguments: [
    ("\"a\" = \"b\";\n\"c\" \"d\";\n", 2, "expected '=' after the key 'c'"),
    ("\"a\" = \"b\"\n", 2, "expected ';' after the value of 'a'"),
    ("\n\"a\" = \"b\n\n", 2, "a string is never closed"),
    ("/* open\n\n", 1, "a '/*' comment is never closed"),
    ("\"a\" = \"\\q\";", 1, "unknown escape '\\q'"),
    ("\"a\" = \"\\U12\";", 1, "'\\U' needs four hexadecimal digits"),
    ("\"a\" = ;", 1, "expected a value in double quotes, found ';'"),
    ("\"a\" =", 1, "expected a value, found the end of the file"),
  ])
  func malformedFilesNameTheLine(text: String, line: Int, message: String) throws {
    #expect {
      _ = try load(Array(text.utf8))
    } throws: { error in
      guard let error = error as? StringsError else { return false }
      return error.line == line && error.message == message
    }
  }
}

/// A `--strings` folder with nothing to read in it is a warning (`NoStringsFiles`); a folder
/// with only another language's strings is not.
@Suite struct StringsFolderWarningTests {
  static func warnings(_ files: [String: String], locale: String = "en") throws -> [String] {
    let folder = try scratch(files)
    defer { try? FileManager.default.removeItem(at: folder) }
    let strings = try LocalizedStrings(paths: [folder.path], locale: try CLDRLocale(locale))
    for warning in strings.warnings {
      #expect(warning.file == folder.path && warning.severity == .warning)
    }
    return strings.warnings.map(\.code)
  }

  @Test func aFolderWithoutStringsFilesWarns() throws {
    #expect(try Self.warnings(["README.txt": "notes"]) == ["NoStringsFiles"])
    #expect(try Self.warnings(["en.lproj/notes.txt": "x"]) == ["NoStringsFiles"])
    #expect(try Self.warnings(["Localizable.strings": "\"a\" = \"b\";"]) == ["NoStringsFiles"])
  }

  @Test func aFolderWithStringsOfAnyLanguageDoesNotWarn() throws {
    #expect(try Self.warnings(["fr.lproj/Localizable.strings": "\"a\" = \"b\";"]).isEmpty)
    #expect(try Self.warnings(["en.lproj/Localizable.strings": "\"a\" = \"b\";"]).isEmpty)
    #expect(try Self.warnings(["Localizable.xcstrings": #"{"strings": {}}"#]).isEmpty)
  }
}
