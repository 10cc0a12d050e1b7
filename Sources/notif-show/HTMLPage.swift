import NotifCategories
import NotifJSON
import NotifModel

/// The list as one self-contained HTML page, styled like Notification Center, light and dark
/// (`prefers-color-scheme`): no script, no request (a Content-Security-Policy of
/// `default-src 'none'` says so to the browser too), the body clamped to two lines by the
/// browser (`line-clamp`), which draws the ellipsis where the font puts it. Every string of the
/// payload is written visibly (`Visible`, so no bidirectional override reorders the page) and
/// then HTML-escaped: markup in a payload is text.
struct HTMLPage {
  let options: ShowOptions
  let registry: CategoryRegistry?

  func write(_ entries: [ShownEntry], into out: inout ByteBuffer) {
    out.append(utf8: Self.head)
    out.append(utf8: "<main class=\"\(options.view.rawValue)\">\n<h1>Notifications</h1>\n")
    if entries.isEmpty {
      out.append(utf8: "<p class=\"empty\">No notifications</p>\n")
    }
    for entry in entries {
      switch entry {
      case .item(let item):
        writeItem(item, classes: [], into: &out)
      case .stack(let stack):
        writeStack(stack, into: &out)
      }
    }
    out.append(utf8: "</main>\n</body>\n</html>\n")
  }

  private func writeStack(_ stack: ShownStack, into out: inout ByteBuffer) {
    out.append(utf8: "<section class=\"stack\(stack.count > 1 ? " stacked" : "")\">\n")
    var leading = stack.leading
    leading.isUnread = stack.unreadCount > 0
    let app = stack.app ?? stack.leading.app
    writeItem(
      leading, classes: ["leading"], app: app, count: stack.count,
      badge: stack.newCount > 0 ? (stack.count > 1 ? "\(stack.newCount) new" : "new") : nil,
      into: &out)
    let summary = stack.summaryLine(hiddenPreviews: options.hiddenPreviews)
    if let summary {
      out.append(utf8: "<p class=\"summary\">\(Self.escaped(Visible.line(summary)))</p>\n")
    }
    if let others = stack.others, !others.isEmpty || stack.omitted > 0 {
      out.append(utf8: "<details>\n<summary>Show \(others.count) more</summary>\n")
      for item in others {
        writeItem(item, classes: ["other"], into: &out)
      }
      if stack.omitted > 0 {
        out.append(utf8: "<p class=\"omitted\">+ \(stack.omitted) more not listed</p>\n")
      }
      out.append(utf8: "</details>\n")
    }
    out.append(utf8: "</section>\n")
  }

  private func writeItem(
    _ item: ShownItem, classes: [String], app: String?? = nil, count: Int = 1,
    badge: String?? = nil, into out: inout ByteBuffer
  ) {
    let shownApp = (app ?? item.app) ?? ""
    let shownBadge = badge ?? (item.isNew ? "new" : nil)
    var all = ["item"] + classes
    if item.isUnread { all.append("unread") }
    if shownBadge != nil { all.append("new") }
    out.append(utf8: "<article class=\"\(all.joined(separator: " "))\">\n<header>")
    out.append(utf8: "<span class=\"dot\" title=\"\(item.isUnread ? "unread" : "read")\"></span>")
    out.append(
      utf8:
        "<span class=\"app\">\(Self.escaped(Visible.line(shownApp.isEmpty ? "(no app)" : shownApp)))</span>"
    )
    if count > 1 { out.append(utf8: "<span class=\"count\">\(count)</span>") }
    if options.ranking == .relevance {
      out.append(
        utf8: "<span class=\"relevance\">relevance \(Self.escaped(item.relevance ?? "0"))</span>")
    }
    if let shownBadge { out.append(utf8: "<span class=\"badge\">\(shownBadge)</span>") }
    out.append(
      utf8:
        "<time datetime=\"\(item.createdAt)\">\(RelativeTime.text(item.createdAt, now: options.now))</time>"
    )
    out.append(utf8: "</header>\n")
    if options.hiddenPreviews {
      out.append(utf8: "<p class=\"body\">Notification</p>\n")
    } else {
      if let title = item.title, !title.isEmpty {
        out.append(utf8: "<h2 class=\"title\">\(Self.escaped(Visible.line(title)))</h2>\n")
      }
      if let subtitle = item.subtitle, !subtitle.isEmpty {
        out.append(utf8: "<p class=\"subtitle\">\(Self.escaped(Visible.line(subtitle)))</p>\n")
      }
      if let body = item.body, !body.isEmpty {
        out.append(utf8: "<p class=\"body\">\(Self.escaped(Visible.body(body)))</p>\n")
      }
    }
    if let category = item.category, let registered = registry?[category],
      !registered.actions.isEmpty
    {
      out.append(utf8: "<ul class=\"actions\">")
      for (number, action) in registered.actions.prefix(TextPage.maxActions).enumerated() {
        var names: [String] = []
        if number < TextPage.bannerActions { names.append("banner") }
        if action.options.contains("destructive") { names.append("destructive") }
        out.append(
          utf8:
            "<li class=\"\(names.joined(separator: " "))\">\(Self.escaped(Visible.line(action.title ?? "")))</li>"
        )
      }
      out.append(utf8: "</ul>\n")
    }
    if !options.hiddenPreviews, let target = item.target, !target.isEmpty {
      out.append(
        utf8: "<p class=\"target\">open: <code>\(Self.escaped(Visible.line(target)))</code></p>\n")
    }
    out.append(utf8: "</article>\n")
  }

  /// `text` with `&`, `<`, `>`, `"` and `'` written as character references: safe in an
  /// element and in a quoted attribute.
  static func escaped(_ text: String) -> String {
    guard
      text.utf8.contains(where: {
        $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27
      })
    else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  static let head = """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <meta name="generator" content="notif-show \(ShowCommand.version)">
    <title>Notifications</title>
    <style>
    :root {
      --page: #e9e6ef; --card: rgba(255, 255, 255, 0.82); --text: #111; --muted: #6b6b70;
      --line: rgba(0, 0, 0, 0.08); --dot: #0a84ff; --badge: #30b84d; --danger: #d70015;
      --button: rgba(120, 120, 128, 0.14);
      font: 15px/1.35 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Noto Sans",
        "Noto Sans CJK JP", "Noto Color Emoji", sans-serif;
    }
    @media (prefers-color-scheme: dark) {
      :root {
        --page: #111114; --card: rgba(44, 44, 48, 0.86); --text: #f2f2f7; --muted: #9a9aa2;
        --line: rgba(255, 255, 255, 0.08); --dot: #409cff; --badge: #32d74b; --danger: #ff453a;
        --button: rgba(120, 120, 128, 0.32);
      }
    }
    body { margin: 0; padding: 24px 12px; background: var(--page); color: var(--text); }
    main { max-width: 420px; margin: 0 auto; display: flex; flex-direction: column; gap: 10px; }
    h1 { font-size: 22px; margin: 0 4px 6px; }
    .empty { color: var(--muted); text-align: center; }
    .item, .stack { background: var(--card); border-radius: 18px; }
    .item { padding: 10px 14px 12px; position: relative; }
    .stack { position: relative; padding-bottom: 2px; }
    .stack.stacked { box-shadow: 0 6px 0 -3px var(--card), 0 12px 0 -7px var(--card); margin-bottom: 10px; }
    .stack > .item { background: none; }
    header { display: flex; align-items: baseline; gap: 6px; font-size: 13px; color: var(--muted); }
    .dot { width: 8px; height: 8px; border-radius: 50%; flex: none; align-self: center; }
    .unread > header .dot { background: var(--dot); }
    .app { font-weight: 600; text-transform: uppercase; letter-spacing: 0.02em; overflow: hidden;
      text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
    .count { border-radius: 9px; background: var(--button); padding: 0 6px; font-size: 12px; }
    .relevance { font-size: 12px; }
    .badge { margin-left: auto; background: var(--badge); color: #fff; border-radius: 9px;
      padding: 0 7px; font-size: 11px; font-weight: 700; text-transform: uppercase; }
    time { margin-left: auto; white-space: nowrap; }
    .badge + time { margin-left: 0; }
    .title, .subtitle, .body, .summary, .target, .omitted { margin: 2px 0 0 14px; overflow-wrap: anywhere; }
    .title { font-size: 15px; font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
    .subtitle { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
    .body { white-space: pre-line; display: -webkit-box; -webkit-box-orient: vertical;
      -webkit-line-clamp: 2; line-clamp: 2; overflow: hidden; }
    .summary, .omitted { color: var(--muted); font-size: 13px; padding: 0 14px 10px; margin-left: 14px; }
    .actions { list-style: none; display: flex; flex-wrap: wrap; gap: 6px; margin: 8px 0 0 14px; padding: 0; }
    .actions li { background: var(--button); border-radius: 8px; padding: 3px 10px; font-size: 13px; }
    .actions li:not(.banner) { background: none; border: 1px dashed var(--line); }
    .actions .destructive { color: var(--danger); }
    .target { color: var(--muted); font-size: 12px; }
    details { margin: 0 8px 8px; }
    details > summary { cursor: default; color: var(--muted); font-size: 13px; padding: 4px 14px; }
    details .item { border-top: 1px solid var(--line); border-radius: 0; }
    .chat { flex-direction: column; }
    </style>
    </head>
    <body>

    """
}
