import NotifJSON
import NotifText

/// How much of a string of the input notif-show keeps: what its page can show of it and a
/// little more, never the rest. So a record with a body of megabytes costs, in time and memory,
/// what one with a short body does, and shows the same.
///
/// The terminal page shows a body on two lines of `--width` columns and every other string on
/// one (`TextPage`). The web page clamps a body to two lines of its card, at most 720 CSS
/// pixels wide less its padding and icon, and clips a title to one: at 15 pixels a line there
/// holds some 100 characters, and no more than about 330 of the narrowest glyphs; zooming
/// scales the card and the font alike. It keeps what the terminal page keeps at its widest,
/// `--width 1000`: three times what the card can show, so the clamp, not the cut, ends what is
/// shown. (The strings the web page wraps rather than clamps, a target or a summary line, are
/// cut there too: a page with thousands of columns of one is no better for them; an app's name
/// from the apps file is kept as the payload's strings are.)
///
/// A string is kept whole up to a budget of cells: each grapheme cluster costs its display
/// width, and at least one (an invisible character too); a line break in a body, a whole line.
/// The budget is twice the cells of the lines shown and one line more: room for every line the
/// layout fills, with its breaks and the spaces it drops at a wrap, and for the line after,
/// which tells it whether the text goes on. A longer string is cut after the budget, between
/// grapheme clusters, and ends in the ellipsis, which the layout then cuts off where it cuts the
/// whole string (`TextLayout`; the web page's clamp). So what is shown is the same as for the
/// whole string, but for a text that is mostly long runs of spaces or of invisible characters:
/// the cut shows its ellipsis sooner. At most 64 raw bytes a cell are read, which holds the
/// longest emoji sequences, escaped.
struct ShownText {
  /// The columns of a line: `--width`, or the widest for the web page.
  let width: Int
  /// What ends a cut string: the page's ellipsis.
  let ellipsis: String

  /// The most raw bytes of the string read for a cell of the budget.
  static let bytesPerCell = 64

  /// Keeps what the page of `options` shows.
  init(_ options: ShowOptions) {
    switch options.format {
    case .text:
      width = options.width
      ellipsis = options.ascii ? "..." : "\u{2026}"
    case .html:
      width = ShowCommand.maximumWidth
      ellipsis = "\u{2026}"
    case .email:
      width = EmailPage.columns
      ellipsis = "\u{2026}"
    }
  }

  init(width: Int, ellipsis: String) {
    self.width = width
    self.ellipsis = ellipsis
  }

  /// The cells of the budget of a string shown on `lines` lines.
  func budget(lines: Int) -> Int {
    2 * (lines + 1) * (width + 1)
  }

  /// The string at `index` of `view` as much of it as is shown on `lines` lines (more than one:
  /// its line breaks break lines), cut (with the ellipsis) when it is longer; nil when it is no
  /// string.
  func text(_ view: JSONView, _ index: Int, lines: Int) -> String? {
    guard index >= 0, view.kind(index) == .string else { return nil }
    let budget = budget(lines: lines)
    let read = view.stringPrefix(index, maxBytes: budget * Self.bytesPerCell)
    return cut(read.text, isWhole: read.isWhole, lines: lines)
  }

  /// `text`, the start of a string (all of it when `isWhole`), kept whole when it is within
  /// the budget of `lines` lines, else cut after the budget and ended with the ellipsis. When
  /// `text` is not all of the string, its last cluster may be cut short: it is never kept.
  func cut(_ text: String, isWhole: Bool, lines: Int) -> String {
    let budget = budget(lines: lines)
    // A string within the budget by its bytes alone (a cluster is as many bytes as cells at
    // least), with no line break (LF, or the E2 lead byte of U+2028 and U+2029) that would
    // cost more, needs no count.
    if isWhole && text.utf8.count <= budget
      && (lines == 1 || !text.utf8.contains(where: { $0 == 0x0A || $0 == 0xE2 }))
    {
      return text
    }
    var cells = 0
    var end = text.startIndex
    while end < text.endIndex && cells <= budget {
      let next = text.index(after: end)
      if !isWhole && next == text.endIndex { break }
      let character = text[end]
      if lines > 1 && Self.breaksLine(character) {
        cells += width + 1
      } else {
        cells += max(DisplayWidth.of(character), 1)
      }
      end = next
    }
    if isWhole && end == text.endIndex { return text }
    return String(text[..<end]) + ellipsis
  }

  /// Whether a body breaks its line at `character`, as `Visible.body` and `TextLayout` do.
  static func breaksLine(_ character: Character) -> Bool {
    character == "\n" || character == "\r\n" || character == "\u{2028}" || character == "\u{2029}"
  }
}
