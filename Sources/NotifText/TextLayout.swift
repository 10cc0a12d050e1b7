/// Text laid out in lines of a display width, as a terminal shows it: wrapped and, past the
/// last line allowed, cut with an ellipsis, never inside a grapheme cluster.
///
/// Widths are `DisplayWidth`'s. A line breaks after a space, or before or after a wide
/// (2-column) cluster, since CJK text and emoji break anywhere between characters; a word
/// longer than a line is cut between two clusters. A line feed (U+000A), LINE SEPARATOR or
/// PARAGRAPH SEPARATOR in the text starts a new line. Spaces at a soft break are dropped. The
/// last line allowed, when the text goes on past it, is filled to the width less the
/// ellipsis's, cluster by cluster, its trailing spaces dropped, then ends in the ellipsis: so a
/// flag, a skin-toned or ZWJ emoji, a letter with its combining marks stay whole or go whole.
///
/// Every line is at most `width` columns, as long as `width` holds the ellipsis and the widest
/// cluster of the text (2 columns do); a cluster wider than the whole line is put on a line of
/// its own rather than lost.
public enum TextLayout {
  /// The lines `text` takes at `width` columns, at most `maxLines` of them; when the text goes
  /// on past the last one, that line ends in `ellipsis` and `truncated` is true.
  ///
  /// - Complexity: O(n log m) for n code points (the width of each).
  public static func wrap(_ text: String, width: Int, maxLines: Int, ellipsis: String)
    -> (lines: [String], truncated: Bool)
  {
    guard maxLines > 0 else { return ([], !text.isEmpty) }
    let paragraphs = text.split(
      omittingEmptySubsequences: false,
      whereSeparator: { $0 == "\n" || $0 == "\u{2028}" || $0 == "\u{2029}" })
    var lines: [String] = []
    for (number, paragraph) in paragraphs.enumerated() {
      let clusters = paragraph.map { (character: $0, width: DisplayWidth.of($0)) }
      var start = 0
      repeat {
        let isLast = number == paragraphs.count - 1
        if lines.count == maxLines - 1 {
          let rest = clusters[start...].reduce(0) { $0 + $1.width }
          if isLast && rest <= width {
            lines.append(String(clusters[start...].map(\.character)))
            return (lines, false)
          }
          lines.append(cut(clusters[start...], width: width, ellipsis: ellipsis))
          return (lines, true)
        }
        let end = lineEnd(clusters, from: start, width: width)
        lines.append(trimmed(clusters[start..<end]))
        start = end
        while start < clusters.count && clusters[start].character == " " { start += 1 }
      } while start < clusters.count
    }
    return (lines, false)
  }

  /// `text` on one line of `width` columns: whole when it fits, else cut to leave room for
  /// `ellipsis`, which ends it. A line break in `text` counts as the end of what fits.
  public static func line(_ text: String, width: Int, ellipsis: String) -> String {
    wrap(text, width: width, maxLines: 1, ellipsis: ellipsis).lines.first ?? ""
  }

  /// Where the line that starts at `start` ends: past the last break opportunity that fits, or
  /// past the last cluster that fits when there is none (at least one cluster).
  private static func lineEnd(
    _ clusters: [(character: Character, width: Int)], from start: Int, width: Int
  ) -> Int {
    var used = 0
    var end = start
    while end < clusters.count && used + clusters[end].width <= width {
      used += clusters[end].width
      end += 1
    }
    if end == clusters.count { return end }
    if end == start { return start + 1 }  // one cluster wider than the line
    // The next cluster does not fit: break at the last opportunity, if any.
    var candidate = end
    while candidate > start {
      let before = clusters[candidate - 1]
      let after = clusters[candidate]
      if before.character == " " || after.character == " " || before.width == 2
        || after.width == 2
      {
        return candidate
      }
      candidate -= 1
    }
    return end
  }

  /// The clusters that fit in `width` columns less the ellipsis's, trailing spaces dropped,
  /// then the ellipsis.
  private static func cut(
    _ clusters: ArraySlice<(character: Character, width: Int)>, width: Int, ellipsis: String
  ) -> String {
    let room = width - DisplayWidth.of(ellipsis)
    var used = 0
    var end = clusters.startIndex
    while end < clusters.endIndex && used + clusters[end].width <= room {
      used += clusters[end].width
      end += 1
    }
    return trimmed(clusters[clusters.startIndex..<end]) + ellipsis
  }

  private static func trimmed(_ clusters: ArraySlice<(character: Character, width: Int)>)
    -> String
  {
    var end = clusters.endIndex
    while end > clusters.startIndex && clusters[end - 1].character == " " { end -= 1 }
    return String(clusters[clusters.startIndex..<end].map(\.character))
  }
}
