import NotifCategories
import NotifJSON
import NotifModel
import NotifText

/// The list as an HTML page a mail client shows as it is (`--to email`): what a sender of
/// digests mails. Mail clients drop scripts, `<details>` and remote content, many drop the
/// style sheet and classes too, and they lay out tables more reliably than boxes: every element
/// is styled inline in light colors, the layout is in `role="presentation"` tables 600 pixels
/// wide at most, with no image (mail clients block `data:` URIs), no request, no script. The
/// one style sheet, in the head, holds only the dark scheme: for a client that honors
/// `prefers-color-scheme` (Apple Mail, iOS Mail), it recolors the classes each element carries
/// beside its inline style; a client that drops it shows the light page, and `color-scheme`
/// tells the others the page has its own dark colors. Times are absolute, in the zone of
/// `--tz` with its offset (UTC by default), since a mail is read later than it is written, and
/// the day headings say their date. As on the web page, each card has one mark (a "New" badge,
/// an unread dot, or none when read), and a title whose record names a safe URL is a link to
/// it. A stack or digest lists its records under it, opened: there is no control to open them.
/// Text is cut as in a terminal 70 columns wide (a title on one line, a body on two), since a
/// mail client clamps nothing. Every string of the payload and of the apps file is written
/// visibly (`Visible`), then HTML-escaped.
struct EmailPage {
  let options: ShowOptions
  let registry: CategoryRegistry?
  let apps: AppDirectory

  /// The columns a title (one line) and a body (two) are cut to.
  static let columns = 70

  private static let font =
    "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;"

  /// A color of the page, light inline and dark in the style sheet, named by the class that
  /// carries it: WCAG AA contrast (4.5:1 or more) for every text on the card and the page, in
  /// both schemes.
  private struct Paint {
    let name, light, dark: String
    let property: String
    /// The inline style of the light scheme.
    var style: String { "\(property):\(light);" }
  }
  private static let page = Paint(
    name: "page", light: "#f2f2f7", dark: "#121214", property: "background-color")
  private static let card = Paint(
    name: "card", light: "#ffffff", dark: "#2a2a2e", property: "background-color")
  private static let text = Paint(
    name: "text", light: "#1c1c1e", dark: "#f2f2f7", property: "color")
  private static let muted = Paint(
    name: "muted", light: "#5c5c63", dark: "#a7a7b0", property: "color")
  private static let dot = Paint(name: "dot", light: "#0a6ee0", dark: "#4c9dff", property: "color")
  private static let badge = Paint(
    name: "badge", light: "#1a7f37", dark: "#4ac26b", property: "background-color")
  private static let badgeText = Paint(
    name: "badge-text", light: "#ffffff", dark: "#06240e", property: "color")
  private static let danger = Paint(
    name: "danger", light: "#c8161d", dark: "#ff7b72", property: "color")
  private static let rule = Paint(
    name: "rule", light: "#d1d1d6", dark: "#48484e", property: "border-color")
  private static let link = Paint(
    name: "link", light: "#0a5fd1", dark: "#6cb6ff", property: "color")

  private static let badgeStyle = "border-radius:9px;padding:0 6px;font-size:11px;font-weight:700;"

  /// ` class="…" style="…"`: the classes of `paints` and their light colors, then `style`.
  private static func styled(_ paints: [Paint], _ style: String = "") -> String {
    let classes = paints.map(\.name).joined(separator: " ")
    return " class=\"\(classes)\" style=\"\(style)\(paints.map(\.style).joined())\""
  }

  func write(_ list: ShownList, into out: inout ByteBuffer) {
    let entries = list.entries
    out.append(utf8: Self.head)
    out.append(utf8: "<body\(Self.styled([Self.page, Self.text], "margin:0;padding:0;"))>\n")
    out.append(utf8: Self.table([Self.page]))
    out.append(utf8: "<tr><td align=\"center\" style=\"padding:20px 12px 32px;\">\n")
    out.append(utf8: Self.table([], "max-width:600px;"))
    var top =
      "<tr><td style=\"\(Self.font)padding:0 4px 12px;\">"
      + "<h1\(Self.styled([Self.text], "margin:0;font-size:26px;line-height:1.2;"))>"
      + "Notifications</h1>"
    if let unread = list.unreadLine {
      top +=
        "<p\(Self.styled([Self.muted], "margin:2px 0 0;font-size:15px;font-weight:600;"))>"
        + "\(unread)</p>"
    }
    out.append(utf8: top + "</td></tr>\n")
    if entries.isEmpty {
      out.append(utf8: Self.centered("No notifications"))
    }
    // Day headings only when the list is by time; each says its date, as a mail is read later.
    var day: Int64? = nil
    for entry in entries {
      let time = entry.key.createdAt
      if options.ranking == .time, options.zone.day(time) != day {
        day = options.zone.day(time)
        let date = RelativeTime.date(time, zone: options.zone)
        let name = RelativeTime.heading(
          time, now: options.now, zone: options.zone, names: options.dayNames)
        let heading = name == date ? date : "\(name), \(date)"
        out.append(
          utf8: "<tr><td style=\"\(Self.font)padding:8px 4px 8px;\">"
            + "<h2\(Self.styled([Self.muted], "margin:0;font-size:13px;font-weight:600;"))"
            + " dir=\"auto\">\(Self.escaped(heading))</h2></td></tr>\n")
      }
      out.append(utf8: "<tr><td style=\"padding:0 0 12px;\">\n")
      out.append(utf8: Self.table([Self.card], "border-radius:16px;"))
      switch entry {
      case .item(let item):
        writeItem(item, app: name(item.app), mark: item.state, into: &out)
      case .stack(let stack):
        let app = name(stack.app ?? stack.leading.app)
        writeItem(stack.leading, app: app, mark: stack.state, into: &out)
        if let summary = stack.summaryLine(hiddenPreviews: options.hiddenPreviews) {
          writeNote(Visible.line(summary), into: &out)
        }
        writeOthers(stack.others ?? [], unlistedLine: stack.unlistedLine, into: &out)
      case .digest(let digest):
        let header = digest.header(hiddenPreviews: options.hiddenPreviews, zone: options.zone)
        writeItem(header, app: name(digest.app), mark: digest.state, previews: true, into: &out)
        writeOthers(digest.items, unlistedLine: digest.unlistedLine, into: &out)
      }
      out.append(utf8: "</table>\n</td></tr>\n")
    }
    if let cut = list.cutLine(options.ranking) {
      out.append(utf8: Self.centered(cut))
    }
    out.append(utf8: "</table>\n</td></tr>\n</table>\n</body>\n</html>\n")
  }

  /// A table that only lays out: no border, spacing or padding of its own.
  private static func table(_ paints: [Paint], _ style: String = "") -> String {
    "<table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" border=\"0\""
      + (paints.isEmpty ? " style=\"\(style)\"" : styled(paints, style)) + ">\n"
  }

  /// A muted row of the page, centered: that there is nothing, or what `--limit` cut.
  private static func centered(_ text: String) -> String {
    "<tr><td\(styled([muted], "\(font)font-size:15px;text-align:center;"))>\(text)</td></tr>\n"
  }

  /// The records a stack or digest lists, each in a row of its own under a rule, indented;
  /// then how many more it does not list.
  private func writeOthers(
    _ items: [ShownItem], unlistedLine: String?, into out: inout ByteBuffer
  ) {
    for item in items {
      writeItem(item, app: name(item.app), mark: item.state, indent: true, into: &out)
    }
    if let unlistedLine {
      writeNote(unlistedLine, indent: !items.isEmpty, into: &out)
    }
  }

  /// A muted line of the card: a stack's summary, or what is not listed.
  private func writeNote(_ text: String, indent: Bool = false, into out: inout ByteBuffer) {
    let style = "\(Self.font)padding:0 14px 12px \(indent ? 40 : 28)px;font-size:13px;"
    out.append(
      utf8: "<tr><td\(Self.styled([Self.muted], style + "line-height:1.4;"))>"
        + "\(Self.escaped(text))</td></tr>\n")
  }

  /// One notification as a row of the card: the header (app, its one mark, time), the title
  /// (a link where the record names a URL), subtitle and body, the category's actions and
  /// the item the app names.
  private func writeItem(
    _ item: ShownItem, app: String, mark: ReadState, indent: Bool = false,
    previews: Bool = false, into out: inout ByteBuffer
  ) {
    let padding = indent ? "10px 14px 10px 40px" : "12px 14px 8px 14px"
    let cell = "\(Self.font)padding:\(padding);font-size:15px;line-height:1.4;"
    if indent {
      out.append(
        utf8: "<tr><td\(Self.styled([Self.text, Self.rule], cell + "border-top:1px solid;"))>\n")
    } else {
      out.append(utf8: "<tr><td\(Self.styled([Self.text], cell))>\n")
    }
    // The header, on one line: the app, its one mark, the time.
    var header = "<p\(Self.styled([Self.muted], "margin:0;font-size:13px;"))>"
    header += "<strong\(Self.styled([Self.text]))>\(Self.escaped(app))</strong>"
    switch mark {
    case .new:
      header +=
        " <span\(Self.styled([Self.badge, Self.badgeText], Self.badgeStyle))>New</span>"
    case .unread:
      header +=
        " <span role=\"img\" aria-label=\"unread\"\(Self.styled([Self.dot]))>\u{25CF}</span>"
    case .read:
      break
    }
    header += " &middot; \(options.zone.minuteText(item.createdAt))</p>\n"
    out.append(utf8: header)
    if options.hiddenPreviews && !previews {
      out.append(utf8: "<p style=\"margin:2px 0 0;\">Notification</p>\n")
    } else {
      writeText(item, into: &out)
    }
    // The category's actions, as text: a mail runs nothing.
    if let category = item.category, let registered = registry?[category],
      !registered.actions.isEmpty
    {
      let shown = registered.actions.prefix(TextPage.maxActions).map { action in
        let paint = action.options.contains("destructive") ? Self.danger : Self.muted
        let title = Self.escaped(
          TextLayout.line(
            Visible.line(action.title ?? ""), width: Self.columns, ellipsis: "\u{2026}"))
        return "<span\(Self.styled([paint]))>\(title)</span>"
      }
      out.append(
        utf8: "<p\(Self.styled([Self.muted], "margin:6px 0 0;font-size:13px;"))>"
          + "\(shown.joined(separator: " &middot; "))</p>\n")
    }
    // `target_content_id` names the item for the app; it is not where a tap goes.
    if !options.hiddenPreviews || previews, let target = item.target, !target.isEmpty {
      let line = TextLayout.line(
        Visible.line(target), width: Self.columns - 6, ellipsis: "\u{2026}")
      out.append(
        utf8: "<p\(Self.styled([Self.muted], "margin:2px 0 0;font-size:12px;"))>"
          + "item \(Self.escaped(line))</p>\n")
    }
    out.append(utf8: "</td></tr>\n")
  }

  /// The title, subtitle and body, cut as in a terminal; the title (else the body) a link to
  /// the item's URL where it has one.
  private func writeText(_ item: ShownItem, into out: inout ByteBuffer) {
    var linked = false
    func linking(_ text: String) -> String {
      guard let link = item.link, !linked else { return text }
      linked = true
      return "<a href=\"\(Self.escaped(link))\" rel=\"noopener noreferrer\""
        + "\(Self.styled([Self.link], "text-decoration:underline;"))>\(text)</a>"
    }
    if let title = item.title, !title.isEmpty {
      let line = TextLayout.line(Visible.line(title), width: Self.columns, ellipsis: "\u{2026}")
      out.append(
        utf8: "<p dir=\"auto\" style=\"margin:2px 0 0;font-weight:600;\">"
          + "\(linking(Self.escaped(line)))</p>\n")
    }
    if let subtitle = item.subtitle, !subtitle.isEmpty {
      let line = TextLayout.line(
        Visible.line(subtitle), width: Self.columns, ellipsis: "\u{2026}")
      out.append(utf8: "<p dir=\"auto\" style=\"margin:2px 0 0;\">\(Self.escaped(line))</p>\n")
    }
    if let body = item.body, !body.isEmpty {
      let laid = TextLayout.wrap(
        Visible.body(body), width: Self.columns, maxLines: 2, ellipsis: "\u{2026}")
      let lines = laid.lines.map(Self.escaped).joined(separator: "<br>")
      out.append(utf8: "<p dir=\"auto\" style=\"margin:2px 0 0;\">\(linking(lines))</p>\n")
    }
  }

  /// The name the header shows for the app `id`, visible and cut to a line.
  private func name(_ id: String?) -> String {
    TextLayout.line(
      Visible.line(ShownText(options).cut(apps.app(id).name, isWhole: true, lines: 1)),
      width: Self.columns, ellipsis: "\u{2026}")
  }

  static func escaped(_ text: String) -> String { HTMLPage.escaped(text) }

  /// The page up to its body: a Content-Security-Policy that allows nothing but the styles
  /// (for a browser that opens the page), and the style sheet of the dark scheme.
  static let head =
    HTMLPage.documentStart(
      policy: "default-src 'none'; style-src 'unsafe-inline'", schemes: "light dark")
    + "<meta name=\"supported-color-schemes\" content=\"light dark\">\n<style>\n"
    + "@media (prefers-color-scheme: dark) {\n"
    + [page, card, text, muted, dot, badge, badgeText, danger, rule, link].map {
      "  .\($0.name) { \($0.property): \($0.dark) !important; }\n"
    }.joined() + "}\n</style>\n</head>\n"
}
