import Testing

@testable import NotifText

@Suite struct TextLayoutTests {
  /// The widths and line counts each layout sample is tried at.
  static let widths = [2, 3, 4, 5, 7, 10, 13, 20, 31, 40, 80]

  /// wcwidth's clusters and widths (WidthSamples.layouts, from scripts/gen-width-samples.py)
  /// check every line TextLayout makes of CJK, emoji, combining and right-to-left text: each
  /// line is whole clusters, in order, and fits its width as wcwidth measures it; the text is
  /// all there unless it was cut, and a cut line ends in the ellipsis.
  @Test(arguments: WidthSamples.layouts.indices)
  func linesAreWholeClustersThatFitAsWcwidthMeasures(_ sample: Int) throws {
    let (text, clusters) = WidthSamples.layouts[sample]
    for width in Self.widths {
      for maxLines in [1, 2, 3] {
        for (ellipsis, ellipsisWidth) in [("\u{2026}", 1), ("...", 3)] where ellipsisWidth < width {
          let laid = TextLayout.wrap(text, width: width, maxLines: maxLines, ellipsis: ellipsis)
          let place = "sample \(sample), width \(width), \(maxLines) lines, '\(ellipsis)'"
          #expect(laid.lines.count <= maxLines, "\(place)")
          var next = 0
          for (number, line) in laid.lines.enumerated() {
            var rest = Substring(line).unicodeScalars[...]
            var used = 0
            if laid.truncated && number == laid.lines.count - 1 {
              let tail = ellipsis.unicodeScalars
              #expect(rest.reversed().starts(with: tail.reversed()), "\(place): \(line)")
              rest = rest.dropLast(tail.count)
              used += ellipsisWidth
            }
            if number > 0 {
              while next < clusters.count && clusters[next].0 == " " { next += 1 }
            }
            while !rest.isEmpty {
              guard next < clusters.count, rest.starts(with: clusters[next].0.unicodeScalars)
              else {
                Issue.record("\(place): line \(number) '\(line)' splits a cluster at \(next)")
                return
              }
              rest = rest.dropFirst(clusters[next].0.unicodeScalars.count)
              used += clusters[next].1
              next += 1
            }
            #expect(used <= width, "\(place): line \(number) '\(line)' is \(used) columns")
          }
          if laid.truncated {
            #expect(next < clusters.count, "\(place): cut, yet every cluster is shown")
          } else {
            while next < clusters.count && clusters[next].0 == " " { next += 1 }
            #expect(next == clusters.count, "\(place): clusters lost")
          }
        }
      }
    }
  }

  @Test(arguments: [
    // A flag, a skin tone, a ZWJ family and a letter with two marks stay whole, or go whole.
    ("\u{1F1EB}\u{1F1F7}\u{1F1EF}\u{1F1F5}", 3, "\u{1F1EB}\u{1F1F7}\u{2026}"),
    ("\u{1F44D}\u{1F3FD}\u{1F44D}\u{1F3FF}", 3, "\u{1F44D}\u{1F3FD}\u{2026}"),
    (
      "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}xyz", 3,
      "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{2026}"
    ),
    ("a\u{308}\u{301}bcd", 3, "a\u{308}\u{301}b\u{2026}"),
    // A wide character that does not fit in what is left goes whole.
    ("漢字漢字", 4, "漢\u{2026}"),
    ("漢字", 4, "漢字"),
    // Trailing spaces before the ellipsis are dropped.
    ("ab   cdefgh", 5, "ab\u{2026}"),
    // The text ends at its first line break.
    ("first\nsecond", 20, "first\u{2026}"),
  ])
  func oneLineIsCutBetweenClusters(_ text: String, _ width: Int, _ expected: String) {
    #expect(TextLayout.line(text, width: width, ellipsis: "\u{2026}") == expected)
  }

  @Test func twoLinesBreakAtSpacesAndTheSecondIsFilledThenCut() {
    let laid = TextLayout.wrap(
      "Are we still on for lunch at noon? I booked the table by the window.", width: 20,
      maxLines: 2, ellipsis: "\u{2026}")
    #expect(laid.lines == ["Are we still on for", "lunch at noon? I bo\u{2026}"])
    #expect(laid.truncated)
  }

  @Test func cjkBreaksBetweenCharactersAndLatinAtSpaces() {
    let laid = TextLayout.wrap("会議は午後三時 from 3pm", width: 8, maxLines: 3, ellipsis: "...")
    #expect(laid.lines == ["会議は午", "後三時", "from 3pm"])
    #expect(!laid.truncated)
  }

  @Test func lineBreaksStartLinesAndEmptyParagraphsCount() {
    let laid = TextLayout.wrap("one\n\nthree", width: 10, maxLines: 2, ellipsis: "...")
    #expect(laid.lines == ["one", "..."])
    #expect(laid.truncated)
    let all = TextLayout.wrap(
      "one\u{2028}two\u{2029}three", width: 10, maxLines: 3, ellipsis: "...")
    #expect(all.lines == ["one", "two", "three"])
    #expect(!all.truncated)
  }

  @Test func aWordLongerThanTheLineIsCut() {
    let laid = TextLayout.wrap("abcdefghijkl mn", width: 5, maxLines: 4, ellipsis: "\u{2026}")
    #expect(laid.lines == ["abcde", "fghij", "kl mn"])
  }

  @Test func aClusterWiderThanTheLineHasALineOfItsOwn() {
    let laid = TextLayout.wrap("漢a", width: 1, maxLines: 3, ellipsis: "")
    #expect(laid.lines == ["漢", "a"])
  }

  @Test func nothingFitsInNoLines() {
    #expect(TextLayout.wrap("text", width: 10, maxLines: 0, ellipsis: "\u{2026}") == ([], true))
    #expect(TextLayout.wrap("", width: 10, maxLines: 2, ellipsis: "\u{2026}") == ([""], false))
  }

  /// The ellipsis is East Asian Ambiguous: one column here, two on terminals set to draw
  /// ambiguous characters wide, which is why notif-show has --ascii.
  @Test func theEllipsisIsAmbiguousAndOneColumn() {
    #expect(DisplayWidth.isAmbiguous("\u{2026}"))
    #expect(DisplayWidth.of("\u{2026}" as Unicode.Scalar) == 1)
    #expect(!DisplayWidth.isAmbiguous("a"))
    #expect(!DisplayWidth.isAmbiguous("\u{6F22}"))
  }
}
