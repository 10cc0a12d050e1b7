import Testing

@testable import NotifText

@Suite struct DisplayWidthTests {
  /// wcwidth's answers for CJK, emoji, combining and joining marks and right-to-left scripts,
  /// recorded by scripts/gen-width.py (WidthSamples.swift).
  @Test(arguments: WidthSamples.scalars)
  func codePointsAreAsWideAsWcwidthSays(_ kind: String, _ value: UInt32, _ width: Int) throws {
    let scalar = try #require(Unicode.Scalar(value))
    #expect(DisplayWidth.of(scalar) == width, "\(kind): U+\(String(value, radix: 16))")
  }

  @Test(arguments: WidthSamples.strings)
  func textsAreAsWideAsWcswidthSays(_ text: String, _ width: Int) {
    #expect(DisplayWidth.of(text) == width)
  }

  /// The emoji blocks the hand-written table of CopyLint missed (U+1F680-U+1F6FF and
  /// U+1FA70-U+1FAFF), near both ends.
  @Test(arguments: [0x1F680, 0x1F6B2, 0x1F6FC, 0x1FA70, 0x1FA77, 0x1FA80, 0x1FAE0, 0x1FAF8])
  func everyEmojiBlockIsTwoColumns(_ value: UInt32) throws {
    #expect(DisplayWidth.of(try #require(Unicode.Scalar(value))) == 2)
  }

  @Test(arguments: [
    (UInt32(0x00), 0), (0x09, 0), (0x0A, 0), (0x1B, 0), (0x7F, 0), (0x85, 0), (0x9F, 0),
    (0xA0, 1), (0xAD, 1), (0x2FF, 1), (0x300, 0), (0x10FFFF, 1), (0xE000, 1), (0x0378, 1),
    // Spacing marks take room, as in glibc (wcwidth 0.7 counts them 0 and corrects in
    // wcswidth): DEVANAGARI VOWEL SIGN AA, SIGN VISARGA.
    (0x093E, 1), (0x0903, 1),
  ])
  func controlsAreZeroAndSpacingMarksOne(_ value: UInt32, _ width: Int) throws {
    #expect(DisplayWidth.of(try #require(Unicode.Scalar(value))) == width)
  }

  /// Every run of the generated table is in order and apart, so the binary search finds it.
  @Test func theTableIsSortedAndItsRunsApart() {
    for (before, after) in zip(DisplayWidth.runs, DisplayWidth.runs.dropFirst()) {
      #expect(before.first <= before.last && before.last < after.first)
    }
    for (before, after) in zip(
      DisplayWidth.emojiVariationBases, DisplayWidth.emojiVariationBases.dropFirst())
    {
      #expect(before.first <= before.last && before.last < after.first)
    }
    #expect(DisplayWidth.runs.allSatisfy { $0.width == 0 || $0.width == 2 })
  }

  @Test func anEmptyTextIsZeroColumns() {
    #expect(DisplayWidth.of("") == 0)
    #expect(DisplayWidth.of("abc"[...]) == 3)
  }

  /// A cluster is as wide as its widest code point: a base with combining marks stays one
  /// column; U+FE0F widens only a base that has an emoji form.
  @Test(arguments: [
    ("e\u{301}\u{302}\u{303}", 1), ("\u{2764}\u{FE0F}", 2), ("x\u{FE0F}", 1),
    ("\u{2764}\u{FE0E}", 1), ("\u{1F469}\u{200D}\u{1F4BB}", 2), ("\u{6F22}\u{301}", 2),
  ])
  func clustersTakeTheirWidestCodePoint(_ text: String, _ width: Int) throws {
    #expect(DisplayWidth.of(try #require(text.first)) == width)
  }
}
