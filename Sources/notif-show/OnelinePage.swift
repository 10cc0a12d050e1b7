import NotifJSON
import NotifModel
import NotifText

/// `--oneline`: the list one line an entry, as `git log --oneline` lists commits: its one mark
/// (`NEW`, the unread dot, or none), when it came, its app, and its text: the title, then the
/// body (or else the subtitle) after a colon, its line breaks as spaces; a stack adds its
/// summary line after a middle dot, and a digest is its text and its window. The columns line
/// up: the mark, the time and the app are padded to the widest of the list (the app's name to
/// `widestApp` columns at most), and the line is cut at `--width` with the ellipsis, between
/// grapheme clusters, with the widths, escapes and colors of the cards (`TextPage`). No
/// heading and no day sections: each line says its own day.
struct OnelinePage {
  let page: TextPage

  /// The widest the app's column gets.
  static let widestApp = 16

  /// One entry's line before it is laid out.
  private struct Row {
    var state: ReadState
    var time: String
    var app: String
    var text: [TextPage.Span]
  }

  func write(_ list: ShownList, into out: inout ByteBuffer) {
    let rows = list.entries.map(row)
    let markWidth = rows.reduce(0) { max($0, DisplayWidth.of(mark($1.state))) }
    let timeWidth = rows.reduce(0) { max($0, DisplayWidth.of($1.time)) }
    let appWidth = min(rows.reduce(0) { max($0, DisplayWidth.of($1.app)) }, Self.widestApp)
    for row in rows {
      var spans: [TextPage.Span] = []
      if markWidth > 0 {
        let style: TextPage.Style = row.state == .new ? .badge : .unread
        spans.append((padded(mark(row.state), markWidth), style))
        spans.append((" ", .plain))
      }
      spans.append((padded(row.time, timeWidth), .dim))
      spans.append((" ", .plain))
      let app = TextLayout.line(row.app, width: appWidth, ellipsis: page.ellipsis)
      spans.append((padded(app, appWidth), .bold))
      spans.append(("  ", .plain))
      page.emit(page.fitted(spans + row.text, room: page.options.width), indent: 0, into: &out)
    }
    if let cut = list.cutLine(page.options.ranking) {
      page.emit(page.fitted([(cut, .dim)], room: page.options.width), indent: 0, into: &out)
    }
  }

  private func mark(_ state: ReadState) -> String {
    switch state {
    case .new: return TextPage.newBadge
    case .unread: return page.unreadMark
    case .read: return ""
    }
  }

  private func padded(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(width - DisplayWidth.of(text), 0))
  }

  /// When an entry came: against `--now` in the feed (`5m`, `Yesterday`, a date); in the chat
  /// view its time of day on the day of `--now`, as a conversation shows it, else the date.
  private func time(_ time: Timestamp) -> String {
    let options = page.options
    if options.view == .chat && options.zone.day(time) == options.zone.day(options.now) {
      return String(options.zone.dayAndMinute(time).minute)
    }
    return RelativeTime.text(time, now: options.now, zone: options.zone)
  }

  private func row(_ entry: ShownEntry) -> Row {
    let hidden = page.options.hiddenPreviews
    switch entry {
    case .item(let item):
      return Row(
        state: item.state, time: time(item.createdAt), app: page.name(item.app),
        text: text(item))
    case .stack(let stack):
      var spans = text(stack.leading)
      if let summary = stack.summaryLine(hiddenPreviews: hidden) {
        spans += [(page.separator, .dim), (Visible.line(summary), .dim)]
      }
      return Row(
        state: stack.state, time: time(stack.leading.createdAt),
        app: page.name(stack.app ?? stack.leading.app), text: spans)
    case .digest(let digest):
      let header = digest.header(hiddenPreviews: hidden, zone: page.options.zone)
      return Row(
        state: digest.state, time: time(digest.latestAt), app: page.name(digest.app),
        text: [
          (Visible.line(header.title ?? ""), .bold), (page.separator, .dim),
          (header.subtitle ?? "", .dim),
        ])
    }
  }

  /// A notification's text on one line: `Title: body`; with hidden previews, the placeholder.
  private func text(_ item: ShownItem) -> [TextPage.Span] {
    if page.options.hiddenPreviews { return [("Notification", .plain)] }
    var spans: [TextPage.Span] = []
    if let title = item.title, !title.isEmpty { spans.append((Visible.line(title), .bold)) }
    let rest = [item.body, item.subtitle].lazy.compactMap { $0 }.first { !$0.isEmpty }
    if let rest {
      let flat = Visible.body(rest).split(separator: "\n").joined(separator: " ")
      if !spans.isEmpty { spans.append((": ", .plain)) }
      spans.append((flat, .plain))
    }
    return spans
  }
}
