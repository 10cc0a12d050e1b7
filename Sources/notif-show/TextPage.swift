import NotifCategories
import NotifJSON
import NotifModel
import NotifText

/// The list as lines for a terminal: a header with the unread count, then day sections
/// (`Today`, `Yesterday`, dates), each notification a card of a header (its one mark, the
/// app's name, relevance, time), the title and subtitle on one line each, the body on two at
/// most, its actions and the link a tap opens; a stack adds its summary line and its other
/// items, indented; a footer says how many `--limit` left out. A card is at most `measure`
/// columns wide, so the time stays beside the app on a wide terminal. `--oneline` writes one
/// line an entry instead (`OnelinePage`). Every string of the payload and of the apps file is
/// written visibly (`Visible`) and cut to the width in display columns (`TextLayout`); color,
/// when asked for, never counts toward a width.
struct TextPage {
  let options: ShowOptions
  let registry: CategoryRegistry?
  let apps: AppDirectory
  /// The width of a card: `--width`, at most `measure`.
  let width: Int

  /// The most actions an alert shows.
  static let maxActions = 4
  /// The widest card, in columns: a comfortable measure for reading, and the time within
  /// reach of the app's name.
  static let measure = 64

  init(options: ShowOptions, registry: CategoryRegistry?, apps: AppDirectory) {
    self.options = options
    self.registry = registry
    self.apps = apps
    width = min(options.width, Self.measure)
  }

  /// How a span of text is drawn in color.
  enum Style: String {
    case plain = ""
    case bold = "1"
    case dim = "2"
    case unread = "1;34"
    case badge = "1;32"
    case heading = "1;4"
    case action = "36"
    case destructive = "31"
    case link = "4;34"
  }

  /// A piece of a line: visible text (no control character) and its style.
  typealias Span = (text: String, style: Style)

  var ellipsis: String { options.ascii ? "..." : "\u{2026}" }
  var unreadMark: String { options.ascii ? "*" : "\u{25CF}" }
  /// What separates the actions of a line, and the unread count from the title.
  var separator: String { options.ascii ? " | " : " \u{00B7} " }
  /// What goes before the link a tap opens.
  private var linkMark: String { options.ascii ? "-> " : "\u{2197} " }
  /// The badge of a new notification.
  static let newBadge = "NEW"

  func write(_ list: ShownList, into out: inout ByteBuffer) {
    let entries = list.entries
    if entries.isEmpty {
      out.append(utf8: "No notifications\n")
      return
    }
    if options.oneline {
      OnelinePage(page: self).write(list, into: &out)
      return
    }
    var header: [Span] = [("Notifications", .bold)]
    if let unread = list.unreadLine { header += [(separator, .plain), (unread, .unread)] }
    writeLine(header, indent: 0, into: &out)
    var section: String? = nil
    for entry in entries {
      out.append(UInt8(ascii: "\n"))
      if let heading = options.dayHeading(entry.key.createdAt), heading != section {
        writeLine([(heading, .heading)], indent: 0, into: &out)
        section = heading
      }
      switch entry {
      case .item(let item):
        writeItem(item, indent: 0, into: &out)
      case .stack(let stack):
        writeStack(stack, into: &out)
      case .digest(let digest):
        writeDigest(digest, into: &out)
      }
    }
    if let cut = list.cutLine(options.ranking) {
      out.append(UInt8(ascii: "\n"))
      writeLine([(cut, .dim)], indent: 0, into: &out)
    }
  }

  // MARK: - Blocks

  private func writeStack(_ stack: ShownStack, into out: inout ByteBuffer) {
    let app = name(stack.app ?? stack.leading.app)
    writeHeader(stack.leading, app: app, state: stack.state, indent: 0, into: &out)
    writeContent(stack.leading, indent: 0, into: &out)
    let summary = stack.summaryLine(hiddenPreviews: options.hiddenPreviews)
    if let summary {
      writeWrapped(Visible.line(summary), .dim, indent: 2, into: &out)
    }
    guard let others = stack.others else { return }
    for item in others {
      writeItem(item, indent: 4, into: &out)
    }
    if let more = stack.unlistedLine {
      writeWrapped(more, .dim, indent: 4, into: &out)
    }
  }

  /// A digest: its text as the title and its window under it, whatever `--hidden-previews`
  /// (which picks the text), then the records it lists, indented, and how many it does not.
  private func writeDigest(_ digest: ShownDigest, into out: inout ByteBuffer) {
    let header = digest.header(hiddenPreviews: options.hiddenPreviews, zone: options.zone)
    writeHeader(header, app: name(digest.app), state: digest.state, indent: 0, into: &out)
    writeContent(header, indent: 0, previews: true, into: &out)
    for item in digest.items {
      writeItem(item, indent: 4, into: &out)
    }
    if let more = digest.unlistedLine {
      writeWrapped(more, .dim, indent: 4, into: &out)
    }
  }

  private func writeItem(_ item: ShownItem, indent: Int, into out: inout ByteBuffer) {
    writeHeader(item, app: name(item.app), state: item.state, indent: indent, into: &out)
    writeContent(item, indent: indent, into: &out)
  }

  /// The first line: the unread mark, the app, then at the right the relevance (with
  /// `--sort relevance`), the new badge and the time. One mark only: the badge of a new
  /// notification, the dot of an unread one, none on one read.
  private func writeHeader(
    _ item: ShownItem, app: String, state: ReadState, indent: Int, into out: inout ByteBuffer
  ) {
    var right: [Span] = []
    if options.ranking == .relevance {
      right.append(("relevance \(item.relevance ?? "0")", .dim))
    }
    if state == .new { right.append((Self.newBadge, .badge)) }
    right.append((options.cardTime(item.createdAt), .dim))
    // On a narrow line the time keeps its room, then the badge, then the relevance, with a
    // column left for the app (the time is 10 columns at most; a line 16 at least).
    let roomForRight = width - indent - 2 - 1 - 1
    var rightWidth = right.reduce(right.count - 1) { $0 + DisplayWidth.of($1.text) }
    while rightWidth > roomForRight && right.count > 1 {
      rightWidth -= DisplayWidth.of(right.removeFirst().text) + 1
    }
    let room = max(width - indent - 2 - rightWidth - 1, 1)
    let shownApp = TextLayout.line(app, width: room, ellipsis: ellipsis)
    var spans: [Span] = [
      (state == .unread ? unreadMark : " ", .unread), (" ", .plain), (shownApp, .bold),
    ]
    let used = 2 + DisplayWidth.of(shownApp) + rightWidth
    spans.append((String(repeating: " ", count: max(width - indent - used, 1)), .plain))
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
    let width = self.width - inner
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
    var actions: [Span] = []
    if let category = item.category, let registered = registry?[category] {
      for action in registered.actions.prefix(Self.maxActions) {
        let style: Style = action.options.contains("destructive") ? .destructive : .action
        actions.append((Visible.line(action.title ?? ""), style))
      }
    }
    writeActions(actions, indent: inner, into: &out)
    if !options.hiddenPreviews || previews, let link = item.link {
      let line = TextLayout.line(Visible.line(link), width: width - 2, ellipsis: ellipsis)
      emit([(linkMark, .dim), (line, .link)], indent: inner, into: &out)
    }
  }

  /// Writes the actions the category declares, as the labels they are, `Reply · Delete`, as
  /// many to a line as fit, the line broken between them and never inside one, so that none is
  /// lost at any width; one wider than a whole line has a line of its own, cut with the
  /// ellipsis between grapheme clusters.
  private func writeActions(_ actions: [Span], indent: Int, into out: inout ByteBuffer) {
    let room = width - indent
    let separatorWidth = DisplayWidth.of(separator)
    var line: [Span] = []
    var used = 0
    for action in actions {
      var text = action.text
      var width = DisplayWidth.of(text)
      if !line.isEmpty && used + separatorWidth + width > room {
        emit(line, indent: indent, into: &out)
        line = []
        used = 0
      }
      if width > room {
        text = TextLayout.line(action.text, width: room, ellipsis: ellipsis)
        width = DisplayWidth.of(text)
      }
      if !line.isEmpty {
        line.append((separator, .dim))
        used += separatorWidth
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
  func name(_ id: String?) -> String {
    Visible.line(ShownText(options).cut(apps.app(id).name, isWhole: true, lines: 1))
  }

  // MARK: - Lines

  /// Writes `text` in `style` at `indent`, wrapped on two lines at most, as a body is.
  private func writeWrapped(
    _ text: String, _ style: Style, indent: Int, into out: inout ByteBuffer
  ) {
    let laid = TextLayout.wrap(
      text, width: width - indent, maxLines: 2, ellipsis: ellipsis)
    for line in laid.lines {
      emit([(line, style)], indent: indent, into: &out)
    }
  }

  /// Writes `spans` as one line at `indent`, cut with the ellipsis where it overflows.
  func writeLine(_ spans: [Span], indent: Int, into out: inout ByteBuffer) {
    emit(fitted(spans, room: width - indent), indent: indent, into: &out)
  }

  /// The spans that fit in `room` columns whole, then the start of the one that does not, cut
  /// with the ellipsis between grapheme clusters (none where even the ellipsis does not fit).
  func fitted(_ spans: [Span], room: Int) -> [Span] {
    var room = room
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
    return fitted
  }

  /// Writes the spans, each in its style when color is on, after `indent` spaces, and ends
  /// the line; trailing spaces are not written.
  func emit(_ spans: [Span], indent: Int, into out: inout ByteBuffer) {
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
