/// Terminal display widths: the columns a code point, a grapheme cluster or a text takes in a
/// monospaced grid, as terminals and wcwidth count them.
///
/// A code point takes 2 columns when it is East Asian Wide or Fullwidth, emoji with emoji
/// presentation included (`漢`, `Ａ`, `🚀`, `🪀`); 0 when it shows nothing by itself: nonspacing
/// and enclosing marks (`e` + U+0301), ZERO WIDTH JOINER, variation selectors, the invisible
/// format characters, Hangul medial vowels and final consonants, and the C0 and C1 controls;
/// else 1, right-to-left letters, spacing marks and the East Asian Ambiguous characters (`…`)
/// included. A grapheme cluster takes the width of its widest code point, and 2 when U+FE0F
/// asks for the emoji form of a base that has one (`❤️`): so a flag, a ZWJ sequence or a skin
/// tone is one emoji of 2 columns. The table is generated from the Unicode Character Database
/// by scripts/gen-width.py; scripts/gen-width-samples.py checks it against Python's wcwidth.
public enum DisplayWidth {
  /// The columns `scalar` takes: 0, 1 or 2.
  ///
  /// - Complexity: O(log n) in the number of runs of the table (about 500); O(1) below U+0300.
  public static func of(_ scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x300 {
      // Latin: only the controls are not 1 (the soft hyphen shows, as wcwidth counts it).
      return value < 0x20 || (value >= 0x7F && value < 0xA0) ? 0 : 1
    }
    let run = firstRun(endingAtOrAfter: value, count: runs.count) { runs[$0].last }
    guard run < runs.count, runs[run].first <= value else { return 1 }
    return Int(runs[run].width)
  }

  /// The columns `character` takes: its widest code point's, or 2 for an emoji base with
  /// U+FE0F (emoji presentation) after it.
  ///
  /// - Complexity: O(k log n) for a cluster of k code points.
  public static func of(_ character: Character) -> Int {
    var scalars = character.unicodeScalars.makeIterator()
    guard let base = scalars.next() else { return 0 }
    var widest = of(base)
    while widest < 2, let next = scalars.next() {
      if next.value == 0xFE0F && isEmojiVariationBase(base) { return 2 }
      widest = max(widest, of(next))
    }
    return widest
  }

  /// The columns `text` takes: the sum over its grapheme clusters.
  ///
  /// - Complexity: O(n log m) for n code points.
  public static func of<Text: StringProtocol>(_ text: Text) -> Int {
    var columns = 0
    for character in text { columns += of(character) }
    return columns
  }

  /// Whether `scalar` is East Asian Ambiguous (`…`, `•`, `→`, Greek and Cyrillic letters):
  /// one column here, as terminals count it outside CJK locales, and two on a terminal set to
  /// draw ambiguous characters wide.
  ///
  /// - Complexity: O(log n) in the number of runs of the table (about 180).
  public static func isAmbiguous(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    let runs = ambiguousRuns
    let run = firstRun(endingAtOrAfter: value, count: runs.count) { runs[$0].last }
    return run < runs.count && runs[run].first <= value
  }

  static func isEmojiVariationBase(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    let bases = emojiVariationBases
    let run = firstRun(endingAtOrAfter: value, count: bases.count) { bases[$0].last }
    return run < bases.count && bases[run].first <= value
  }

  /// The index of the first of `count` sorted, disjoint runs whose last code point (`last`) is
  /// `value` or above; `count` if there is none. A binary search.
  @inline(__always)
  private static func firstRun(
    endingAtOrAfter value: UInt32, count: Int, last: (Int) -> UInt32
  ) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if last(middle) < value {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }
}
