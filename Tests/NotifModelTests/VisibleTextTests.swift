import TestSupport
import Testing

@testable import NotifModel

/// `Diagnostic.visible` against its generated table (`escapeRuns`): what it must write
/// visibly, and the text of people's languages and emoji it must leave alone.
@Suite struct VisibleTextTests {
  /// PropList.txt's Bidi_Control, Unicode 15.0.
  static let bidiControls: [UInt32] =
    [0x061C, 0x200E, 0x200F] + Array(0x202A...0x202E) + Array(0x2066...0x2069)

  /// Characters that draw nothing and stand alone: they could only hide what a text holds.
  static let hiding: [UInt32] =
    [0x00AD, 0x115F, 0x1160, 0x180E, 0x200B, 0x2060, 0x3164, 0xFEFF, 0xFFA0]
    + Array(0x2061...0x2064)

  static func written(_ value: UInt32) -> String {
    switch value {
    case 0x09: "\\t"
    case 0x0A: "\\n"
    case 0x0D: "\\r"
    case 0x1B: "\\e"
    default: "\\u{" + String(value, radix: 16, uppercase: true) + "}"
    }
  }

  static func text(_ values: [UInt32]) -> String {
    var text = ""
    for value in values { text.unicodeScalars.append(Unicode.Scalar(value)!) }
    return text
  }

  /// The class of `value` by a plain walk of the table.
  static func tableClass(_ value: UInt32) -> Diagnostic.Escape? {
    Diagnostic.escapeRuns.first { $0.first <= value && value <= $0.last }?.escape
  }

  @Test func tableRunsAreSortedAndApart() {
    for (run, next) in zip(Diagnostic.escapeRuns, Diagnostic.escapeRuns.dropFirst()) {
      #expect(run.first <= run.last)
      #expect(run.last < next.first)
    }
  }

  @Test func asciiFastPathAgreesWithTheTable() {
    for value in UInt32(0)..<0x80 {
      #expect(Diagnostic.escape(value) == Self.tableClass(value), "U+\(value)")
    }
  }

  @Test func everyControlIsWrittenVisiblyEverywhere() {
    let controls = Array(UInt32(0)..<0x20) + Array(UInt32(0x7F)...0x9F)
    for value in controls + Self.bidiControls + [0x2028, 0x2029] + Self.hiding {
      #expect(Diagnostic.escape(value) == .always, "U+\(String(value, radix: 16))")
      let scalar = Self.text([value])
      for (before, after) in [("", ""), ("a", "b"), ("\u{1B}", ""), ("é", "😀")] {
        let shown = Diagnostic.visible(before + scalar + after)
        #expect(!shown.unicodeScalars.contains { $0.value == value })
        #expect(shown.hasSuffix(after))
      }
    }
    #expect(Diagnostic.visible("a\u{061C}b") == "a\\u{61C}b")
    #expect(Diagnostic.visible("user\u{3164}name") == "user\\u{3164}name")
  }

  /// Each code point of the table, at the start, after a letter and after a control.
  @Test func everyCodePointOfTheTableFollowsItsClass() {
    for run in Diagnostic.escapeRuns {
      for value in run.first...run.last {
        let scalar = Self.text([value])
        let written = Self.written(value)
        let afterLetter = Diagnostic.visible("a" + scalar)
        #expect(Diagnostic.visible(scalar) == written)
        #expect(Diagnostic.visible("\u{7}" + scalar) == "\\u{7}" + written)
        switch run.escape {
        case .always, .tag:
          #expect(!afterLetter.unicodeScalars.contains { $0.value == value })
        case .unattached:
          #expect(afterLetter == "a" + scalar)
        }
      }
    }
  }

  @Test(arguments: [
    "👨‍👩‍👧‍👦", "🏳️‍🌈", "❤️‍🔥", "🧑🏽‍💻", "👩‍❤️‍💋‍👨", "🐻‍❄️", "🇫🇷🇯🇵🇺🇦", "1️⃣ #️⃣ *️⃣",
    "🏴󠁧󠁢󠁳󠁣󠁴󠁿 🏴󠁧󠁢󠁥󠁮󠁧󠁿 🏴󠁧󠁢󠁷󠁬󠁳󠁿", "☺︎ ☺️", "می‌خواهم نمی‌دانم", "क्‍ष र्‍य नमस्ते",
    "ᠠ᠋ᠢ", "葛󠄀城", "مرحبا بالعالم", "שלום", "e\u{301}", "한국어 ﾊﾝｶｸ",
  ])
  func languagesAndEmojiPassUnchanged(_ text: String) {
    #expect(Diagnostic.visible(text) == text)
    #expect(Diagnostic.visible("'" + text + "'") == "'" + text + "'")
  }

  @Test(arguments: [
    ("\u{200D}x", "\\u{200D}x"),
    ("\u{200C}", "\\u{200C}"),
    ("\u{FE0F}1", "\\u{FE0F}1"),
    ("\u{1B}\u{FE0F}\u{200D}", "\\e\\u{FE0F}\\u{200D}"),
    ("a\u{202E}\u{200D}b", "a\\u{202E}\\u{200D}b"),
    ("a \u{FE0F}\u{200C}", "a \\u{FE0F}\\u{200C}"),
    // Tags outside an emoji tag sequence carry text no one sees.
    ("hi\u{E0069}\u{E0067}\u{E006E}", "hi\\u{E0069}\\u{E0067}\\u{E006E}"),
    (
      "\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
      "\\u{E0067}\\u{E0062}\\u{E0073}\\u{E0063}\\u{E0074}\\u{E007F}"
    ),
    // A tag base, then no CANCEL TAG, upper case, too few or too many tags.
    ("🏴\u{E0067}\u{E0062}\u{E0073}", "🏴\\u{E0067}\\u{E0062}\\u{E0073}"),
    ("🏴\u{E0047}\u{E0042}\u{E0053}\u{E007F}", "🏴\\u{E0047}\\u{E0042}\\u{E0053}\\u{E007F}"),
    ("🏴\u{E0067}\u{E0062}\u{E007F}", "🏴\\u{E0067}\\u{E0062}\\u{E007F}"),
    (
      "🏴\u{E0069}\u{E0067}\u{E006E}\u{E006F}\u{E0072}\u{E0065}\u{E0061}\u{E006C}\u{E007F}",
      "🏴\\u{E0069}\\u{E0067}\\u{E006E}\\u{E006F}\\u{E0072}\\u{E0065}\\u{E0061}\\u{E006C}\\u{E007F}"
    ),
    ("🏴\u{E007F}", "🏴\\u{E007F}"),
    ("a\u{E0100}\u{E0100}", "a\u{E0100}\u{E0100}"),
  ])
  func invisibleCharactersWithNothingToJoinAreWrittenVisibly(_ text: String, _ expected: String) {
    #expect(Diagnostic.visible(text) == expected)
  }

  /// Random texts of controls, invisible characters, letters and emoji pieces: what comes out
  /// holds no character that is always written visibly, no tag outside a tag sequence, and
  /// is what `visible` gives back again (so nothing in it is in a place it would escape).
  @Test func visibleOutputHoldsNothingOfTheSet() {
    let pieces: [String] =
      Self.bidiControls.map { Self.text([$0]) } + Self.hiding.map { Self.text([$0]) } + [
        "\u{1B}", "\n", "\u{9B}", "\u{7F}", "\u{200C}", "\u{200D}", "\u{FE0F}", "\u{E0100}",
        "\u{180B}", "\u{E0067}", "\u{E0062}", "\u{E0073}", "\u{E0063}", "\u{E0074}",
        "\u{E007F}", "\u{E0001}", "🏴", "👩", "a", " ", "\\", "é", "ی", "क", "्", "\u{301}",
        "🇫", "\u{2028}",
      ]
    var random = SplitMix(seed: 18)
    for _ in 0..<3000 {
      var text = ""
      for _ in 0..<random.below(12) { text += random.pick(pieces) }
      let shown = Diagnostic.visible(text)
      #expect(Diagnostic.visible(shown) == shown, "\(Array(text.unicodeScalars))")
      let values = shown.unicodeScalars.map(\.value)
      #expect(!values.contains { Diagnostic.escape($0) == .always })
      if let first = values.first { #expect(Diagnostic.escape(first) == nil) }
      for (index, value) in values.enumerated() where Diagnostic.escape(value) == .tag {
        #expect(values[..<index].last { Diagnostic.escape($0) != .tag } == 0x1F3F4)
      }
    }
  }
}
