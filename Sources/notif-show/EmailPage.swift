import NotifCategories
import NotifJSON
import NotifModel
import NotifText

/// The list as an HTML page a mail client shows as it is (`--format email`): what a sender of
/// digests mails. Mail clients drop `<style>` elements, scripts, `<details>`, classes and
/// remote content, and lay out tables more reliably than boxes, so the page has none of the
/// former: every element styled inline, the layout in `role="presentation"` tables 600 pixels
/// wide at most, no image (mail clients block `data:` URIs), no request, no script, light
/// colors only (a scheme the page does not set is left to the client). Times are absolute, in
/// the zone of `--tz` with its offset (UTC by default), since a mail is read later than it is
/// written. A stack or digest lists its records
/// under it, opened: there is no control to open them. Text is cut as in a terminal 70
/// columns wide (a title on one line, a body on two), since a mail client clamps nothing.
/// Every string of the payload and of the apps file is written visibly (`Visible`), then
/// HTML-escaped.
struct EmailPage {
  let options: ShowOptions
  let registry: CategoryRegistry?
  let apps: AppDirectory

  /// The columns a title (one line) and a body (two) are cut to.
  static let columns = 70

  private static let font =
    "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;"
  /// The colors: WCAG AA contrast (4.5:1 or more) for every text on the card and the page.
  private static let page = "#f2f2f7"
  private static let card = "#ffffff"
  private static let text = "#1c1c1e"
  private static let muted = "#5c5c63"
  private static let dot = "#0a6ee0"
  private static let badge = "#1a7f37"
  private static let danger = "#c8161d"
  private static let rule = "#d1d1d6"

  func write(_ list: ShownList, into out: inout ByteBuffer) {
    let entries = list.entries
    out.append(utf8: Self.head)
    out.append(
      utf8:
        "<body style=\"margin:0;padding:0;background-color:\(Self.page);color:\(Self.text);\">\n"
    )
    out.append(utf8: Self.table("background-color:\(Self.page);"))
    out.append(utf8: "<tr><td align=\"center\" style=\"padding:20px 12px 32px;\">\n")
    out.append(utf8: Self.table("max-width:600px;"))
    out.append(
      utf8:
        "<tr><td style=\"\(Self.font)padding:0 4px 12px;\"><h1 style=\"margin:0;font-size:26px;line-height:1.2;color:\(Self.text);\">Notifications</h1></td></tr>\n"
    )
    if entries.isEmpty {
      out.append(
        utf8:
          "<tr><td style=\"\(Self.font)font-size:15px;color:\(Self.muted);text-align:center;\">No notifications</td></tr>\n"
      )
    }
    for entry in entries {
      out.append(utf8: "<tr><td style=\"padding:0 0 12px;\">\n")
      out.append(utf8: Self.table("background-color:\(Self.card);border-radius:16px;"))
      switch entry {
      case .item(let item):
        writeItem(item, app: name(item.app), badge: item.isNew ? "NEW" : nil, into: &out)
      case .stack(let stack):
        var leading = stack.leading
        leading.isUnread = stack.unreadCount > 0
        let app = name(stack.app ?? stack.leading.app)
        writeItem(
          leading, app: stack.count > 1 ? "\(app) (\(stack.count))" : app,
          badge: stack.newCount > 0 ? (stack.count > 1 ? "\(stack.newCount) NEW" : "NEW") : nil,
          into: &out)
        if let summary = stack.summaryLine(hiddenPreviews: options.hiddenPreviews) {
          writeNote(Visible.line(summary), into: &out)
        }
        writeOthers(
          stack.others ?? [], unlisted: stack.others == nil ? 0 : stack.unlisted, into: &out)
      case .digest(let digest):
        let header = digest.header(hiddenPreviews: options.hiddenPreviews, zone: options.zone)
        let app = name(digest.app)
        writeItem(
          header, app: digest.count > 1 ? "\(app) (\(digest.count))" : app,
          badge: digest.isNew ? "NEW" : nil, previews: true, into: &out)
        writeOthers(digest.items, unlisted: digest.unlisted, into: &out)
      }
      out.append(utf8: "</table>\n</td></tr>\n")
    }
    out.append(utf8: "</table>\n</td></tr>\n</table>\n</body>\n</html>\n")
  }

  /// A table that only lays out: no border, spacing or padding of its own.
  private static func table(_ style: String) -> String {
    "<table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" border=\"0\" style=\"\(style)\">\n"
  }

  /// The records a stack or digest lists, each in a row of its own under a rule, indented;
  /// then how many it does not list.
  private func writeOthers(_ items: [ShownItem], unlisted: Int, into out: inout ByteBuffer) {
    for item in items {
      writeItem(
        item, app: name(item.app), badge: item.isNew ? "NEW" : nil, indent: true, into: &out)
    }
    if unlisted > 0 {
      writeNote("+ \(unlisted) more not listed", indent: !items.isEmpty, into: &out)
    }
  }

  /// A muted line of the card: a stack's summary, or what is not listed.
  private func writeNote(_ text: String, indent: Bool = false, into out: inout ByteBuffer) {
    out.append(
      utf8:
        "<tr><td style=\"\(Self.font)padding:0 14px 12px \(indent ? 40 : 28)px;font-size:13px;line-height:1.4;color:\(Self.muted);\">\(Self.escaped(text))</td></tr>\n"
    )
  }

  /// One notification as a row of the card: the header (unread mark, app, badge, time), the
  /// title, subtitle and body, the category's actions and the tap target.
  private func writeItem(
    _ item: ShownItem, app: String, badge: String?, indent: Bool = false, previews: Bool = false,
    into out: inout ByteBuffer
  ) {
    let padding = indent ? "10px 14px 10px 40px" : "12px 14px 8px 14px"
    let rule = indent ? "border-top:1px solid \(Self.rule);" : ""
    out.append(
      utf8:
        "<tr><td style=\"\(Self.font)\(rule)padding:\(padding);font-size:15px;line-height:1.4;color:\(Self.text);\">\n"
    )
    // The header, on one line: the mark's place is kept when it is read, so names line up.
    var header = "<p style=\"margin:0;font-size:13px;color:\(Self.muted);\">"
    if item.isUnread {
      header +=
        "<span role=\"img\" aria-label=\"unread\" style=\"color:\(Self.dot);\">\u{25CF}</span>"
    } else {
      header += "<span aria-hidden=\"true\" style=\"color:\(Self.card);\">\u{25CF}</span>"
    }
    header += " <strong style=\"color:\(Self.text);\">\(Self.escaped(app))</strong>"
    if let badge {
      header +=
        " <span style=\"background-color:\(Self.badge);color:#ffffff;border-radius:9px;padding:0 6px;font-size:11px;font-weight:700;\">\(badge)</span>"
    }
    header += " &middot; \(options.zone.minuteText(item.createdAt))</p>\n"
    out.append(utf8: header)
    if options.hiddenPreviews && !previews {
      out.append(utf8: "<p style=\"margin:2px 0 0;\">Notification</p>\n")
    } else {
      if let title = item.title, !title.isEmpty {
        let line = TextLayout.line(Visible.line(title), width: Self.columns, ellipsis: "\u{2026}")
        out.append(
          utf8:
            "<p dir=\"auto\" style=\"margin:2px 0 0;font-weight:600;\">\(Self.escaped(line))</p>\n")
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
        out.append(utf8: "<p dir=\"auto\" style=\"margin:2px 0 0;\">\(lines)</p>\n")
      }
    }
    // The category's actions, as text: a mail runs nothing.
    if let category = item.category, let registered = registry?[category],
      !registered.actions.isEmpty
    {
      let shown = registered.actions.prefix(TextPage.maxActions).map { action in
        let color = action.options.contains("destructive") ? Self.danger : Self.muted
        let title = Self.escaped(
          TextLayout.line(
            Visible.line(action.title ?? ""), width: Self.columns, ellipsis: "\u{2026}"))
        return "<span style=\"color:\(color);\">\(title)</span>"
      }
      out.append(
        utf8:
          "<p style=\"margin:6px 0 0;font-size:13px;color:\(Self.muted);\">\(shown.joined(separator: " &middot; "))</p>\n"
      )
    }
    if !options.hiddenPreviews || previews, let target = item.target, !target.isEmpty {
      let line = TextLayout.line(
        Visible.line(target), width: Self.columns - 6, ellipsis: "\u{2026}")
      out.append(
        utf8:
          "<p style=\"margin:2px 0 0;font-size:12px;color:\(Self.muted);\">open: \(Self.escaped(line))</p>\n"
      )
    }
    out.append(utf8: "</td></tr>\n")
  }

  /// The name the header shows for the app `id`, visible and cut to a line.
  private func name(_ id: String?) -> String {
    TextLayout.line(
      Visible.line(ShownText(options).cut(apps.app(id).name, isWhole: true, lines: 1)),
      width: Self.columns, ellipsis: "\u{2026}")
  }

  static func escaped(_ text: String) -> String { HTMLPage.escaped(text) }

  /// The page up to its body: no style sheet, a Content-Security-Policy that allows nothing
  /// but the inline styles (for a browser that opens the page), light colors only.
  static let head =
    HTMLPage.documentStart(
      policy: "default-src 'none'; style-src 'unsafe-inline'", schemes: "light")
    + "<meta name=\"supported-color-schemes\" content=\"light\">\n</head>\n"
}
