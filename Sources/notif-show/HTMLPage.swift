import NotifCLI
import NotifCategories
import NotifJSON
import NotifModel

/// The list as one self-contained HTML page, styled like Notification Center, light and dark
/// (`prefers-color-scheme`): no script, no request (a Content-Security-Policy of
/// `default-src 'none'` says so to the browser too, allowing only the inline style sheet and
/// images from `data:` URIs), the body clamped to two lines by the browser (`line-clamp`), which
/// draws the ellipsis where the font puts it. Each app shows its name and its icon from the
/// apps file (`AppDirectory`), embedded once in the style sheet, or its initial on a color of
/// its identifier. A stack is its leading notification and, under it, its summary line: the
/// control (`<summary>` of a `<details>`, no script) that opens the others, saying how many are
/// not listed. Every string of the payload and of the apps file is written visibly (`Visible`,
/// so no bidirectional override reorders the page) and then HTML-escaped: markup in a payload
/// is text.
struct HTMLPage {
  let options: ShowOptions
  let registry: CategoryRegistry?
  let apps: AppDirectory

  /// The colors an app's initial is drawn on, chosen by its identifier: white text on each
  /// has a contrast of 6:1 or more (WCAG AA asks 4.5:1), in both color schemes.
  static let initialColors = [
    "#b3261e", "#a43f00", "#7d5700", "#2b6f2e", "#00695c", "#0b57d0", "#5b3aa8", "#a31545",
    "#455a64", "#6a4e3b",
  ]

  /// The apps of one page, each looked up once, with the class of its icon in the style sheet.
  private struct PageApps {
    var byID: [[UInt8]: (app: ShownApp, iconClass: Int?)] = [:]
    /// The icons as `data:` URIs, in the order of their classes (`i0`, `i1`, ...).
    var icons: [String] = []
    private var iconClasses: [String: Int] = [:]

    init(_ entries: [ShownEntry], _ directory: AppDirectory) {
      func add(_ id: String?) {
        let key = Array((id ?? "").utf8)
        guard byID[key] == nil else { return }
        let app = directory.app(id)
        var iconClass: Int? = nil
        if let icon = app.icon {
          let uri = icon.dataURI
          iconClass = iconClasses[uri]
          if iconClass == nil {
            iconClass = icons.count
            iconClasses[uri] = icons.count
            icons.append(uri)
          }
        }
        byID[key] = (app, iconClass)
      }
      for entry in entries {
        switch entry {
        case .item(let item):
          add(item.app)
        case .stack(let stack):
          add(stack.app ?? stack.leading.app)
          for item in stack.others ?? [] { add(item.app) }
        case .digest(let digest):
          add(digest.app)
          for item in digest.items { add(item.app) }
        }
      }
    }

    subscript(id: String?) -> (app: ShownApp, iconClass: Int?) {
      byID[Array((id ?? "").utf8)] ?? (ShownApp(id: id ?? "", name: "", icon: nil), nil)
    }
  }

  func write(_ list: ShownList, into out: inout ByteBuffer) {
    let entries = list.entries
    let pageApps = PageApps(entries, apps)
    out.append(utf8: Self.head)
    for (number, icon) in pageApps.icons.enumerated() {
      out.append(utf8: ".i\(number) { background-image: url(\"\(icon)\"); }\n")
    }
    out.append(utf8: "</style>\n</head>\n<body>\n")
    out.append(utf8: "<main class=\"\(options.view.rawValue)\">\n<h1>Notifications</h1>\n")
    if entries.isEmpty {
      out.append(utf8: "<p class=\"empty\">No notifications</p>\n")
    }
    for entry in entries {
      switch entry {
      case .item(let item):
        writeItem(item, classes: [], apps: pageApps, into: &out)
      case .stack(let stack):
        writeStack(stack, apps: pageApps, into: &out)
      case .digest(let digest):
        writeDigest(digest, apps: pageApps, into: &out)
      }
    }
    out.append(utf8: "</main>\n</body>\n</html>\n")
  }

  private func writeStack(_ stack: ShownStack, apps: PageApps, into out: inout ByteBuffer) {
    let summary = stack.summaryLine(hiddenPreviews: options.hiddenPreviews)
    out.append(utf8: "<section class=\"stack\(summary != nil ? " stacked" : "")\">\n")
    var leading = stack.leading
    leading.isUnread = stack.unreadCount > 0
    let app = stack.app ?? stack.leading.app
    writeItem(
      leading, classes: ["leading"], app: app, count: stack.count,
      badge: .some(stack.newCount > 0 ? (stack.count > 1 ? "\(stack.newCount) new" : "new") : nil),
      apps: apps, into: &out)
    if let summary {
      // What is not listed is said before the stack is opened, in the count of notifications
      // that the group object's `count` gives; a summary's own count may weigh them
      // (`summary_arg_count`: "7 more episodes").
      var lines = "<span class=\"line\">\(Self.escaped(Visible.line(summary)))</span>"
      if stack.others != nil && stack.unlisted > 0 {
        let unlisted = stack.unlisted
        lines +=
          "<span class=\"unlisted\">\(unlisted) notification\(unlisted == 1 ? "" : "s") not listed</span>"
      }
      if let others = stack.others, !others.isEmpty {
        out.append(utf8: "<details>\n<summary class=\"summary\">\(lines)</summary>\n")
        for item in others {
          writeItem(item, classes: ["other"], apps: apps, into: &out)
        }
        out.append(utf8: "</details>\n")
      } else {
        out.append(utf8: "<p class=\"summary\">\(lines)</p>\n")
      }
    }
    out.append(utf8: "</section>\n")
  }

  /// A digest as a stack: its text and window lead, and the records it lists open from the
  /// line that counts them, as a stack's others do.
  private func writeDigest(_ digest: ShownDigest, apps: PageApps, into out: inout ByteBuffer) {
    let hasItems = !digest.items.isEmpty
    let stacked = hasItems || digest.unlisted > 0
    out.append(utf8: "<section class=\"stack digest\(stacked ? " stacked" : "")\">\n")
    writeItem(
      digest.header(hiddenPreviews: options.hiddenPreviews, zone: options.zone),
      classes: ["leading"],
      app: .some(digest.app), count: digest.count, previews: true, apps: apps, into: &out)
    if stacked {
      let listed = digest.items.count
      var lines =
        "<span class=\"line\">\(listed) of \(digest.count) notification\(digest.count == 1 ? "" : "s") listed</span>"
      if digest.unlisted > 0 {
        lines += "<span class=\"unlisted\">\(digest.unlisted) not listed</span>"
      }
      if hasItems {
        out.append(utf8: "<details>\n<summary class=\"summary\">\(lines)</summary>\n")
        for item in digest.items {
          writeItem(item, classes: ["other"], apps: apps, into: &out)
        }
        out.append(utf8: "</details>\n")
      } else {
        out.append(utf8: "<p class=\"summary\">\(lines)</p>\n")
      }
    }
    out.append(utf8: "</section>\n")
  }

  private func writeItem(
    _ item: ShownItem, classes: [String], app: String?? = nil, count: Int = 1,
    badge: String?? = nil, previews: Bool = false, apps: PageApps, into out: inout ByteBuffer
  ) {
    let (shownApp, iconClass) = apps[app ?? item.app]
    let shownBadge = badge ?? (item.isNew ? "new" : nil)
    var all = ["item"] + classes
    if item.isUnread { all.append("unread") }
    if shownBadge != nil { all.append("new") }
    out.append(utf8: "<article class=\"\(all.joined(separator: " "))\">\n")
    // The icon, or the initial on its color, beside the name that says the same: hidden
    // from screen readers.
    if let iconClass {
      out.append(utf8: "<span class=\"icon i\(iconClass)\" aria-hidden=\"true\"></span>\n")
    } else {
      let color = shownApp.color(of: Self.initialColors.count)
      out.append(
        utf8:
          "<span class=\"icon c\(color)\" aria-hidden=\"true\">\(Self.escaped(Visible.line(shownApp.initial)))</span>\n"
      )
    }
    out.append(utf8: "<header>")
    // The dot's place is kept when it is read, so that names line up.
    if item.isUnread {
      out.append(utf8: "<span class=\"dot\" role=\"img\" aria-label=\"unread\"></span>")
    } else {
      out.append(utf8: "<span class=\"dot\"></span>")
    }
    let name = Self.escaped(
      Visible.line(ShownText(options).cut(shownApp.name, isWhole: true, lines: 1)))
    if shownApp.id.isEmpty {
      out.append(utf8: "<span class=\"app\" dir=\"auto\">\(name)</span>")
    } else {
      let id = Self.escaped(Visible.line(shownApp.id))
      out.append(utf8: "<span class=\"app\" dir=\"auto\" title=\"\(id)\">\(name)</span>")
    }
    if count > 1 {
      out.append(
        utf8: "<span class=\"count\">\(count)<span class=\"sr\"> notifications</span></span>")
    }
    if options.ranking == .relevance {
      out.append(
        utf8: "<span class=\"relevance\">relevance \(Self.escaped(item.relevance ?? "0"))</span>")
    }
    if let shownBadge { out.append(utf8: "<span class=\"badge\">\(shownBadge)</span>") }
    out.append(
      utf8:
        "<time datetime=\"\(options.zone.rfc3339(item.createdAt))\">\(RelativeTime.text(item.createdAt, now: options.now, zone: options.zone))</time>"
    )
    out.append(utf8: "</header>\n")
    if options.hiddenPreviews && !previews {
      out.append(utf8: "<p class=\"body\">Notification</p>\n")
    } else {
      if let title = item.title, !title.isEmpty {
        out.append(
          utf8: "<h2 class=\"title\" dir=\"auto\">\(Self.escaped(Visible.line(title)))</h2>\n")
      }
      if let subtitle = item.subtitle, !subtitle.isEmpty {
        out.append(
          utf8:
            "<p class=\"subtitle\" dir=\"auto\">\(Self.escaped(Visible.line(subtitle)))</p>\n")
      }
      if let body = item.body, !body.isEmpty {
        out.append(
          utf8: "<p class=\"body\" dir=\"auto\">\(Self.escaped(Visible.body(body)))</p>\n")
      }
    }
    // The category's actions, as labels: nothing on a page can run them.
    if let category = item.category, let registered = registry?[category],
      !registered.actions.isEmpty
    {
      out.append(utf8: "<ul class=\"actions\" aria-label=\"Actions\">")
      for action in registered.actions.prefix(TextPage.maxActions) {
        let destructive = action.options.contains("destructive")
        out.append(
          utf8:
            "<li\(destructive ? " class=\"destructive\"" : "")>\(Self.escaped(Visible.line(action.title ?? "")))</li>"
        )
      }
      out.append(utf8: "</ul>\n")
    }
    if !options.hiddenPreviews || previews, let target = item.target, !target.isEmpty {
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

  /// The start of a page of notif-show, to its title: the Content-Security-Policy `policy`
  /// and the color schemes `schemes` it is drawn in. The web page and the page for a mail
  /// (`EmailPage`) share it.
  static func documentStart(policy: String, schemes: String) -> String {
    """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta http-equiv="Content-Security-Policy" content="\(policy)">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="\(schemes)">
    <meta name="generator" content="notif-show \(CommandLineTool.toolkitVersion)">
    <title>Notifications</title>

    """
  }

  /// The page up to its style sheet's per-app rules (`write` adds the icons' and closes it).
  static let head =
    documentStart(
      policy: "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
      schemes: "light dark") + """
      <style>
      :root {
        --page: #f2f2f7; --card: #ffffff; --text: #1c1c1e; --muted: #5c5c63; --pill: #ececf0;
        --layer-1: #f8f8fa; --layer-2: #ececf1; --layer-edge: #c4c4ca; --dot: #0a6ee0;
        --badge: #1a7f37; --badge-text: #ffffff; --danger: #c8161d; --focus: #0a5fd1;
        --icon: 32px; --gap: 10px; --pad: 14px;
        font: 15px/1.4 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Noto Sans",
          "Noto Sans CJK JP", "Noto Color Emoji", sans-serif;
      }
      @media (prefers-color-scheme: dark) {
        :root {
          --page: #121214; --card: #2a2a2e; --text: #f2f2f7; --muted: #a7a7b0; --pill: #3a3a40;
          --layer-1: #222226; --layer-2: #1b1b1e; --layer-edge: #55555d; --dot: #4c9dff;
          --badge: #4ac26b; --badge-text: #06240e; --danger: #ff7b72; --focus: #6cb6ff;
        }
      }
      * { box-sizing: border-box; }
      body { margin: 0; padding: 20px 12px 32px; background: var(--page); color: var(--text); }
      main { max-width: 480px; margin: 0 auto; display: flex; flex-direction: column; gap: 12px; }
      h1 { font-size: 26px; margin: 0 4px 4px; }
      .empty { color: var(--muted); text-align: center; }
      .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%);
        white-space: nowrap; }
      .item { position: relative; background: var(--card); border-radius: 16px;
        padding: 12px var(--pad) 12px calc(var(--pad) + var(--icon) + var(--gap));
        min-height: calc(var(--icon) + 24px); }
      .icon { position: absolute; left: var(--pad); top: 12px; width: var(--icon);
        height: var(--icon); border-radius: 22%; display: grid;
        place-items: center; color: #fff; font-weight: 600; font-size: calc(var(--icon) / 2);
        line-height: 1; background: center / cover no-repeat; overflow: hidden; }
      .c0 { background-color: #b3261e; } .c1 { background-color: #a43f00; }
      .c2 { background-color: #7d5700; } .c3 { background-color: #2b6f2e; }
      .c4 { background-color: #00695c; } .c5 { background-color: #0b57d0; }
      .c6 { background-color: #5b3aa8; } .c7 { background-color: #a31545; }
      .c8 { background-color: #455a64; } .c9 { background-color: #6a4e3b; }
      header { display: flex; align-items: baseline; gap: 6px; min-width: 0; font-size: 13px;
        color: var(--muted); }
      .dot { width: 8px; height: 8px; border-radius: 50%; flex: none; align-self: center; }
      .unread > header > .dot { background: var(--dot); }
      .app { font-weight: 600; color: var(--text); overflow: hidden; text-overflow: ellipsis;
        white-space: nowrap; min-width: 0; }
      .count { border-radius: 9px; background: var(--pill); padding: 0 7px; font-size: 12px; }
      .relevance { font-size: 12px; }
      .badge { margin-left: auto; background: var(--badge); color: var(--badge-text);
        border-radius: 9px; padding: 0 7px; font-size: 11px; font-weight: 700;
        text-transform: uppercase; letter-spacing: 0.03em; white-space: nowrap; }
      time { margin-left: auto; white-space: nowrap; }
      .badge + time { margin-left: 0; }
      .title, .subtitle, .body, .target, .actions { margin: 2px 0 0; overflow-wrap: anywhere; }
      .title { font-size: 15px; font-weight: 600; white-space: nowrap; overflow: hidden;
        text-overflow: ellipsis; }
      .subtitle { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
      .body { white-space: pre-line; display: -webkit-box; -webkit-box-orient: vertical;
        -webkit-line-clamp: 2; line-clamp: 2; overflow: hidden; }
      .actions { list-style: none; padding: 0; margin-top: 6px; display: flex; flex-wrap: wrap;
        font-size: 13px; color: var(--muted); }
      .actions li + li::before { content: "\\00B7"; padding: 0 7px; color: var(--muted); }
      .actions .destructive { color: var(--danger); }
      .target { color: var(--muted); font-size: 12px; }
      .stack { display: flex; flex-direction: column; }
      .stacked > .leading { border-radius: 16px 16px 0 0; padding-bottom: 4px; }
      .summary { display: block; margin: 0 0 14px; background: var(--card);
        border-radius: 0 0 16px 16px; color: var(--muted); font-size: 13px;
        padding: 2px calc(var(--pad) + 22px) 12px calc(var(--pad) + var(--icon) + var(--gap));
        position: relative; min-height: 32px;
        box-shadow: 0 13px 0 -7px var(--layer-1), 0 13px 0 -6px var(--layer-edge),
          0 25px 0 -13px var(--layer-2), 0 25px 0 -12px var(--layer-edge); }
      .summary .line, .summary .unlisted { display: block; overflow-wrap: anywhere; }
      .summary .unlisted { font-size: 12px; }
      details > summary { cursor: pointer; list-style: none; }
      details > summary::-webkit-details-marker { display: none; }
      details > summary::after { content: ""; position: absolute; right: calc(var(--pad) + 4px);
        top: 7px; width: 7px; height: 7px; border: solid currentColor; border-width: 0 2px 2px 0;
        transform: rotate(45deg); }
      details[open] > summary { margin-bottom: 0; box-shadow: none; }
      details[open] > summary::after { top: 11px; transform: rotate(-135deg); }
      summary:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
      details > .item { margin: 8px 0 0 12px; }
      @media (min-width: 768px) {
        :root { --icon: 40px; --gap: 14px; --pad: 18px; }
        body { padding: 40px 24px 48px; }
        main { max-width: 720px; gap: 14px; }
        h1 { font-size: 30px; }
        .item { padding-top: 14px; padding-bottom: 14px; }
        .icon { top: 14px; }
        .title { font-size: 16px; }
      }
      @media (forced-colors: active) {
        .item, .summary { border: 1px solid CanvasText; }
        .unread > header > .dot { background: CanvasText; }
      }

      """
}
