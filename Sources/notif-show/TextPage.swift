import NotifCategories
import NotifJSON
import NotifModel
import NotifText

/// The list as lines for a terminal: each notification a block of a header (unread mark, the
/// app's name, relevance, new badge, time), the title and subtitle on one line each, the body
/// on two at most, and the actions, wrapped between them; a stack adds its summary line and its
/// other items, indented. Every string of the payload and of the apps file is written visibly
/// (`Visible`) and cut to the width in display columns (`TextLayout`); color, when asked for,
/// never counts toward a width.
struct TextPage {
  let options: ShowOptions
  let registry: CategoryRegistry?
  let apps: AppDirectory

  /// The most actions an alert shows, and the first of them a banner shows.
  static let maxActions = 4
  static let bannerActions = 2

  /// How a span of text is drawn in color.
  enum Style: String {
    case plain = ""
    case bold = "1"
    case dim = "2"
    case unread = "1;34"
    case badge = "1;32"
    case action = "36"
    case destructive = "31"
  }

  /// A piece of a line: visible text (no control character) and its style.
  typealias Span = (text: String, style: Style)

  var ellipsis: String { options.ascii ? "..." : "\u{2026}" }
  private var unreadMark: String { options.ascii ? "*" : "\u{25CF}" }

  func write(_ list: ShownList, into out: inout ByteBuffer) {
    let entries = list.entries
    if entries.isEmpty {
      out.append(utf8: "No notifications\n")
      return
    }
    for (number, entry) in entries.enumerated() {
      if number > 0 { out.append(UInt8(ascii: "\n")) }
      switch entry {
      case .item(let item):
        writeItem(item, indent: 0, into: &out)
      case .stack(let stack):
        writeStack(stack, into: &out)
      case .digest(let digest):
        writeDigest(digest, into: &out)
      }
    }
  }

  // MARK: - Blocks

  private func writeStack(_ stack: ShownStack, into out: inout ByteBuffer) {
    let app = name(stack.app ?? stack.leading.app)
    var header = stack.leading
    header.isUnread = stack.unreadCount > 0
    writeHeader(
      header, app: stack.count > 1 ? "\(app) (\(stack.count))" : app,
      badge: stack.newCount > 0 ? (stack.count > 1 ? "\(stack.newCount) NEW" : "NEW") : nil,
      indent: 0, into: &out)
    writeContent(stack.leading, indent: 0, into: &out)
    let summary = stack.summaryLine(hiddenPreviews: options.hiddenPreviews)
    if let summary {
      writeWrapped(Visible.line(summary), .dim, indent: 2, into: &out)
    }
    guard let others = stack.others else { return }
    for item in others {
      writeItem(item, indent: 4, into: &out)
    }
    if stack.unlisted > 0 {
      writeWrapped("+ \(stack.unlisted) more not listed", .dim, indent: 4, into: &out)
    }
  }

  /// A digest: its text as the title and its window under it, whatever `--hidden-previews`
  /// (which picks the text), then the records it lists, indented, and how many it does not.
  private func writeDigest(_ digest: ShownDigest, into out: inout ByteBuffer) {
    let header = digest.header(hiddenPreviews: options.hiddenPreviews, zone: options.zone)
    writeHeader(
      header, app: digest.count > 1 ? "\(name(digest.app)) (\(digest.count))" : name(digest.app),
      badge: digest.isNew ? "NEW" : nil, indent: 0, into: &out)
    writeContent(header, indent: 0, previews: true, into: &out)
    for item in digest.items {
      writeItem(item, indent: 4, into: &out)
    }
    if digest.unlisted > 0 {
      writeWrapped("+ \(digest.unlisted) more not listed", .dim, indent: 4, into: &out)
    }
  }

  private func writeItem(_ item: ShownItem, indent: Int, into out: inout ByteBuffer) {
    writeHeader(
      item, app: name(item.app), badge: item.isNew ? "NEW" : nil, indent: indent, into: &out)
    writeContent(item, indent: indent, into: &out)
  }

  /// The first line: the unread mark, the app, then at the right the relevance (with
  /// `--sort relevance`), the new badge and the time.
  private func writeHeader(
    _ item: ShownItem, app: String, badge: String?, indent: Int, into out: inout ByteBuffer
  ) {
    var right: [Span] = []
    if options.ranking == .relevance {
      right.append(("relevance \(item.relevance ?? "0")", .dim))
    }
    if let badge { right.append((badge, .badge)) }
    right.append((RelativeTime.text(item.createdAt, now: options.now, zone: options.zone), .dim))
    // On a narrow line the time keeps its room, then the badge, then the relevance, with a
    // column left for the app (the time is 10 columns at most; a line 16 at least).
    let roomForRight = options.width - indent - 2 - 1 - 1
    var rightWidth = right.reduce(right.count - 1) { $0 + DisplayWidth.of($1.text) }
    while rightWidth > roomForRight && right.count > 1 {
      rightWidth -= DisplayWidth.of(right.removeFirst().text) + 1
    }
    let room = max(options.width - indent - 2 - rightWidth - 1, 1)
    let shownApp = TextLayout.line(app, width: room, ellipsis: ellipsis)
    var spans: [Span] = [
      (item.isUnread ? unreadMark : " ", .unread), (" ", .plain), (shownApp, .bold),
    ]
    let used = 2 + DisplayWidth.of(shownApp) + rightWidth
    spans.append((String(repeating: " ", count: max(options.width - indent - used, 1)), .plain))
    for (number, span) in right.enumerated() {
      if number > 0 { spans.append((" ", .plain)) }
      spans.append(span)
    }
    emit(spans, indent: indent, into: &out)
  }

  /// The title, subtitle, body and actions of a notification, under its header; with
  /// `--hidden-previews` a placeholder instead, unless `previews` (a digest's own texts).
  private func writeContent(
    _ item: ShownItem, indent: Int, previews: Bool = false, into out: inout ByteBuffer
  ) {
    let inner = indent + 2
    let width = options.width - inner
    if options.hiddenPreviews && !previews {
      writeLine([("Notification", .plain)], indent: inner, into: &out)
    } else {
      if let title = item.title, !title.isEmpty {
        let line = TextLayout.line(Visible.line(title), width: width, ellipsis: ellipsis)
        emit([(line, .bold)], indent: inner, into: &out)
      }
      if let subtitle = item.subtitle, !subtitle.isEmpty {
        let line = TextLayout.line(Visible.line(subtitle), width: width, ellipsis: ellipsis)
        emit([(line, .plain)], indent: inner, into: &out)
      }
      if let body = item.body, !body.isEmpty {
        let laid = TextLayout.wrap(
          Visible.body(body), width: width, maxLines: 2, ellipsis: ellipsis)
        for line in laid.lines {
          emit([(line, .plain)], indent: inner, into: &out)
        }
      }
    }
    var actions: [Action] = []
    if let category = item.category, let registered = registry?[category] {
      for (number, action) in registered.actions.prefix(Self.maxActions).enumerated() {
        let style: Style = action.options.contains("destructive") ? .destructive : .action
        actions.append(
          Action(
            text: Visible.line(action.title ?? ""), style: style,
            isBracketed: number < Self.bannerActions, separator: " "))
      }
    }
    if !options.hiddenPreviews || previews, let target = item.target, !target.isEmpty {
      actions.append(
        Action(
          text: "open: \(Visible.line(target))", style: .dim, isBracketed: false, separator: "  "))
    }
    writeActions(actions, indent: inner, into: &out)
  }

  /// An action of the action line, or the tap target at its end.
  private struct Action {
    /// Visible text: an action's title, or `open: ` and the target.
    var text: String
    var style: Style
    /// A banner's action, in brackets.
    var isBracketed: Bool
    /// What comes before it when it is not first on its line.
    var separator: String
  }

  /// Writes the actions and the tap target as many to a line as fit, the line broken between
  /// them and never inside one, so that none is lost at any width; one wider than a whole line
  /// has a line of its own, cut with the ellipsis between grapheme clusters (a banner's action
  /// inside its brackets).
  private func writeActions(_ actions: [Action], indent: Int, into out: inout ByteBuffer) {
    let room = options.width - indent
    var line: [Span] = []
    var used = 0
    for action in actions {
      var text = action.isBracketed ? "[\(action.text)]" : action.text
      var width = DisplayWidth.of(text)
      let separatorWidth = line.isEmpty ? 0 : action.separator.count
      if !line.isEmpty && used + separatorWidth + width > room {
        emit(line, indent: indent, into: &out)
        line = []
        used = 0
      }
      if width > room {
        if action.isBracketed {
          text = "[\(TextLayout.line(action.text, width: room - 2, ellipsis: ellipsis))]"
        } else {
          text = TextLayout.line(action.text, width: room, ellipsis: ellipsis)
        }
        width = DisplayWidth.of(text)
      }
      if !line.isEmpty {
        line.append((action.separator, .plain))
        used += action.separator.count
      }
      line.append((text, action.style))
      used += width
    }
    if !line.isEmpty {
      emit(line, indent: indent, into: &out)
    }
  }

  /// The name the header shows for the app `id`: the apps file's or one made from `id`, kept
  /// as a payload string is (`ShownText`) and written visibly.
  private func name(_ id: String?) -> String {
    Visible.line(ShownText(options).cut(apps.app(id).name, isWhole: true, lines: 1))
  }

  // MARK: - Lines

  /// Writes `text` in `style` at `indent`, wrapped on two lines at most, as a body is.
  private func writeWrapped(
    _ text: String, _ style: Style, indent: Int, into out: inout ByteBuffer
  ) {
    let laid = TextLayout.wrap(
      text, width: options.width - indent, maxLines: 2, ellipsis: ellipsis)
    for line in laid.lines {
      emit([(line, style)], indent: indent, into: &out)
    }
  }

  /// Writes `spans` as one line at `indent`, cut with the ellipsis where it overflows.
  private func writeLine(_ spans: [Span], indent: Int, into out: inout ByteBuffer) {
    var room = options.width - indent
    var fitted: [Span] = []
    for span in spans {
      let width = DisplayWidth.of(span.text)
      if width <= room {
        fitted.append(span)
        room -= width
        continue
      }
      if room >= DisplayWidth.of(ellipsis) {
        fitted.append((TextLayout.line(span.text, width: room, ellipsis: ellipsis), span.style))
      }
      break
    }
    emit(fitted, indent: indent, into: &out)
  }

  /// Writes the spans, each in its style when color is on, after `indent` spaces, and ends
  /// the line; trailing spaces are not written.
  private func emit(_ spans: [Span], indent: Int, into out: inout ByteBuffer) {
    var spans = spans
    while let last = spans.last, last.text.allSatisfy({ $0 == " " }) { spans.removeLast() }
    for _ in 0..<indent { out.append(UInt8(ascii: " ")) }
    for span in spans {
      if options.color && span.style != .plain {
        out.append(utf8: "\u{1B}[\(span.style.rawValue)m")
        out.append(utf8: span.text)
        out.append(utf8: "\u{1B}[0m")
      } else {
        out.append(utf8: span.text)
      }
    }
    out.append(UInt8(ascii: "\n"))
  }
}
