import NotifModel

/// Payload text made safe to show: nothing in it may drive the terminal or the page it is shown
/// on, reorder it, or hide what it holds. The characters `Diagnostic.visible` writes visibly
/// in diagnostics are written so here too, by the same generated rule: every control
/// character (C0, DEL, C1: `ESC [2J`, OSC 52 and OSC 8 sequences begin with ESC or the C1
/// controls), the bidirectional controls (U+061C, LRM, RLM, the embeddings, overrides and
/// isolates, which reorder what follows them), the line and paragraph separators, the
/// characters that draw nothing on their own (U+200B, U+2060, U+FEFF, the Hangul fillers),
/// and ZWJ, ZWNJ, the variation selectors and the tag characters where they join nothing:
/// `\e`, `\t`, `\u{202E}`. Emoji sequences and Persian or Indic words are shown as they are.
/// A body keeps its line breaks as line breaks.
enum Visible {
  /// `text` for one line: every character above written visibly, line feeds as `\n`.
  static func line(_ text: String) -> String {
    Diagnostic.visible(text)
  }

  /// A body: its line breaks (LF, CR LF, U+2028, U+2029) kept as line feeds, every other
  /// character above written visibly.
  static func body(_ text: String) -> String {
    var paragraphs: [String] = []
    var current = ""
    var scalars = text.unicodeScalars[...]
    while let scalar = scalars.popFirst() {
      switch scalar {
      case "\n", "\u{2028}", "\u{2029}":
        paragraphs.append(current)
        current = ""
      case "\r" where scalars.first == "\n":
        continue  // CR LF is one line break
      default:
        current.unicodeScalars.append(scalar)
      }
    }
    paragraphs.append(current)
    return paragraphs.map(Diagnostic.visible).joined(separator: "\n")
  }
}
