import NotifCLI
import NotifCategories
import NotifJSON
import NotifModel

/// The list as one self-contained HTML page, styled like Notification Center, light and dark
/// (`prefers-color-scheme`): no script, no request (a Content-Security-Policy of
/// `default-src 'none'` says so to the browser too, allowing only the inline style sheet and
/// images from `data:` URIs), the body clamped to two lines by the browser (`line-clamp`), which
/// draws the ellipsis where the font puts it.
///
/// The page is an inbox as the Linear and GitHub ones are: the unread count beside the title,
/// day sections (Today, Yesterday, then dates, in `--tz`) when the list is by time, a time
/// under each heading that says the exact minute on hover (`<time title>`), and a footer with
/// what `--limit` cut. Each card has one mark: a "New" badge, an unread dot, or none when it is
/// read. Where the record names a safe URL (`ShownItem.link`), the card's text is a link to it
/// (`rel="noopener noreferrer"`) that says where it goes; elsewhere nothing looks like one. The
/// category's actions are shown as iOS does, on the expanded card: a disclosure that lists them
/// as text, since nothing on a page can run them. Each app shows its name and its icon from the
/// apps file (`AppDirectory`), embedded once in the style sheet, or its initial on a color of
/// its identifier. A stack is its leading notification, its summary line and, behind it, two
/// cards that peek out; the control under it (`<summary>` of a `<details>`, no script) says how
/// many it shows, and under the items it opens, how many more it does not list. Every string of
/// the payload and of the apps file is written visibly (`Visible`, so no bidirectional override
/// reorders the page) and then HTML-escaped: markup in a payload is text.
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
    out.append(utf8: "<main class=\"\(options.view.rawValue)\">\n<div class=\"top\">")
    out.append(utf8: "<h1>Notifications</h1>")
    if let unread = list.unreadLine { out.append(utf8: "<p class=\"tally\">\(unread)</p>") }
    out.append(utf8: "</div>\n")
    if entries.isEmpty {
      out.append(utf8: "<p class=\"empty\">No notifications</p>\n")
    }
    // Day sections only when the list is by time: ranked by relevance, days interleave.
    let sections = options.ranking == .time
    var day: String? = nil
    for entry in entries {
      if let heading = options.dayHeading(entry.key.createdAt), heading != day {
        if day != nil { out.append(utf8: "</section>\n") }
        day = heading
        out.append(
          utf8: "<section class=\"day\">\n<h2 dir=\"auto\">\(Self.escaped(heading))</h2>\n")
      }
      let level = sections ? 3 : 2
      switch entry {
      case .item(let item):
        writeItem(item, mark: item.state, level: level, apps: pageApps, into: &out)
      case .stack(let stack):
        writeStack(stack, level: level, apps: pageApps, into: &out)
      case .digest(let digest):
        writeDigest(digest, level: level, apps: pageApps, into: &out)
      }
    }
    if day != nil { out.append(utf8: "</section>\n") }
    if let cut = list.cutLine(options.ranking) {
      out.append(utf8: "<footer class=\"cut\">\(cut)</footer>\n")
    }
    out.append(utf8: "</main>\n</body>\n</html>\n")
  }

  /// The control that opens a stack or digest: what it shows when opened, and `Show less` while
  /// it is open; the items; then how many more it does not list.
  private func writeOpening(
    _ show: String, items: [ShownItem], unlistedLine: String?, level: Int, apps: PageApps,
    into out: inout ByteBuffer
  ) {
    out.append(
      utf8: "<details>\n<summary><span class=\"show\">\(show)</span>"
        + "<span class=\"less\">Show less</span></summary>\n")
    for item in items {
      writeItem(item, mark: item.state, classes: ["other"], level: level, apps: apps, into: &out)
    }
    if let unlistedLine {
      out.append(utf8: "<p class=\"unlisted\">\(unlistedLine)</p>\n")
    }
    out.append(utf8: "</details>\n")
  }

  private func writeStack(
    _ stack: ShownStack, level: Int, apps: PageApps, into out: inout ByteBuffer
  ) {
    let summary = stack.summaryLine(hiddenPreviews: options.hiddenPreviews)
    out.append(utf8: "<section class=\"stack\(summary != nil ? " stacked" : "")\">\n")
    // The summary line is iOS's, whose count a summary may weigh (`summary_arg_count`: "7 more
    // episodes"); the control counts the notifications it opens, and the line under them the
    // ones the object does not list.
    let line = summary.map { "<p class=\"line\">\(Self.escaped(Visible.line($0)))</p>" }
    writeItem(
      stack.leading, mark: stack.state, classes: ["leading"],
      app: .some(stack.app ?? stack.leading.app), level: level, summaryLine: line, apps: apps,
      into: &out)
    if let others = stack.others, !others.isEmpty {
      writeOpening(
        "Show \(others.count) more", items: others, unlistedLine: stack.unlistedLine,
        level: level, apps: apps, into: &out)
    }
    out.append(utf8: "</section>\n")
  }

  /// A digest as a stack: its text and window lead, and the records it lists open from the
  /// control under it, as a stack's others do.
  private func writeDigest(
    _ digest: ShownDigest, level: Int, apps: PageApps, into out: inout ByteBuffer
  ) {
    let stacked = digest.count > 1
    out.append(utf8: "<section class=\"stack digest\(stacked ? " stacked" : "")\">\n")
    let header = digest.header(hiddenPreviews: options.hiddenPreviews, zone: options.zone)
    writeItem(
      header, mark: digest.state, classes: ["leading"], app: .some(digest.app), level: level,
      previews: true, apps: apps, into: &out)
    if !digest.items.isEmpty {
      let listed = digest.items.count
      writeOpening(
        "Show \(listed) notification\(listed == 1 ? "" : "s")", items: digest.items,
        unlistedLine: digest.unlistedLine, level: level, apps: apps, into: &out)
    }
    out.append(utf8: "</section>\n")
  }

  private func writeItem(
    _ item: ShownItem, mark: ReadState, classes: [String] = [], app: String?? = nil,
    level: Int, previews: Bool = false, summaryLine: String? = nil, apps: PageApps,
    into out: inout ByteBuffer
  ) {
    let (shownApp, iconClass) = apps[app ?? item.app]
    let all = ["item"] + classes + [mark == .read ? "read" : mark == .new ? "new" : "unread"]
    out.append(utf8: "<article class=\"\(all.joined(separator: " "))\">\n")
    // The icon, or the initial on its color, beside the name that says the same: hidden
    // from screen readers.
    if let iconClass {
      out.append(utf8: "<span class=\"icon i\(iconClass)\" aria-hidden=\"true\"></span>\n")
    } else {
      let color = shownApp.color(of: Self.initialColors.count)
      let initial = Self.escaped(Visible.line(shownApp.initial))
      out.append(utf8: "<span class=\"icon c\(color)\" aria-hidden=\"true\">\(initial)</span>\n")
    }
    out.append(utf8: "<header>")
    let name = Self.escaped(
      Visible.line(ShownText(options).cut(shownApp.name, isWhole: true, lines: 1)))
    if shownApp.id.isEmpty {
      out.append(utf8: "<span class=\"app\" dir=\"auto\">\(name)</span>")
    } else {
      let id = Self.escaped(Visible.line(shownApp.id))
      out.append(utf8: "<span class=\"app\" dir=\"auto\" title=\"\(id)\">\(name)</span>")
    }
    if options.ranking == .relevance {
      out.append(
        utf8: "<span class=\"relevance\">relevance \(Self.escaped(item.relevance ?? "0"))</span>")
    }
    // One mark: the badge says "New" in words, the dot says "unread" to a screen reader.
    switch mark {
    case .new: out.append(utf8: "<span class=\"badge\">New</span>")
    case .unread: out.append(utf8: "<span class=\"dot\" role=\"img\" aria-label=\"unread\"></span>")
    case .read: break
    }
    let time = item.createdAt
    out.append(
      utf8: "<time datetime=\"\(options.zone.rfc3339(time))\" "
        + "title=\"\(options.zone.minuteText(time))\">\(options.cardTime(time))</time>")
    out.append(utf8: "</header>\n")
    if options.hiddenPreviews && !previews {
      out.append(utf8: "<p class=\"body\">Notification</p>\n")
    } else {
      writeText(item, level: level, into: &out)
    }
    // The category's actions, as iOS shows them on the expanded notification: behind a
    // disclosure, and as text, since nothing on a page can run them.
    if let category = item.category, let registered = registry?[category],
      !registered.actions.isEmpty
    {
      out.append(
        utf8: "<details class=\"more\"><summary>Actions</summary>"
          + "<ul class=\"actions\" aria-label=\"Actions of the app\">")
      for action in registered.actions.prefix(TextPage.maxActions) {
        let destructive = action.options.contains("destructive")
        let title = Self.escaped(Visible.line(action.title ?? ""))
        out.append(
          utf8: "<li\(destructive ? " class=\"destructive\"" : "") dir=\"auto\">\(title)</li>")
      }
      out.append(utf8: "</ul></details>\n")
    }
    // `target_content_id` names the item for the app; it is not where a tap goes.
    if !options.hiddenPreviews || previews, let target = item.target, !target.isEmpty {
      out.append(
        utf8: "<p class=\"target\">item <code>\(Self.escaped(Visible.line(target)))</code></p>\n")
    }
    // A stack's summary line ends its card, as on iOS.
    if let summaryLine { out.append(utf8: summaryLine + "\n") }
    out.append(utf8: "</article>\n")
  }

  /// The title, subtitle and body; a link to the item's URL where it has one, saying where
  /// it goes.
  private func writeText(_ item: ShownItem, level: Int, into out: inout ByteBuffer) {
    var text = ""
    if let title = item.title, !title.isEmpty {
      text +=
        "<h\(level) class=\"title\" dir=\"auto\">\(Self.escaped(Visible.line(title)))</h\(level)>\n"
    }
    if let subtitle = item.subtitle, !subtitle.isEmpty {
      text += "<p class=\"subtitle\" dir=\"auto\">\(Self.escaped(Visible.line(subtitle)))</p>\n"
    }
    if let body = item.body, !body.isEmpty {
      text += "<p class=\"body\" dir=\"auto\">\(Self.escaped(Visible.body(body)))</p>\n"
    }
    guard let link = item.link, !text.isEmpty else {
      out.append(utf8: text)
      return
    }
    out.append(
      utf8: "<a href=\"\(Self.escaped(link))\" rel=\"noopener noreferrer\" class=\"tap\">\n"
        + text + "<span class=\"opens\" dir=\"auto\">Opens "
        + "\(Self.escaped(Visible.line(Self.destination(link))))</span>\n</a>\n")
  }

  /// Where a link goes, as its card says: the host of an `https` or `http` URL (after any
  /// user name, which can pose as a host: `https://bank.example@evil.example/`; and before a
  /// backslash, which browsers read as a slash there: `https://evil.example\@bank.example`
  /// goes to evil.example), else the app's scheme, `myapp:`.
  static func destination(_ link: String) -> String {
    guard let colon = link.firstIndex(of: ":") else { return link }
    let scheme = link[..<colon].lowercased()
    guard scheme == "https" || scheme == "http" else { return scheme + ":" }
    let authority = link[colon...].dropFirst(3).prefix {
      $0 != "/" && $0 != "\\" && $0 != "?" && $0 != "#"
    }
    let host = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
    return host.isEmpty ? link : String(host)
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
        --page: #f2f2f7; --card: #ffffff; --text: #1c1c1e; --muted: #5c5c63; --pill: #e3e3e8;
        --layer-1: #dcdce2; --layer-2: #cbcbd2; --dot: #0a6ee0; --link: #0a5fd1;
        --badge: #1a7f37; --badge-text: #ffffff; --danger: #c8161d; --focus: #0a5fd1;
        --icon: 32px; --gap: 10px; --pad: 14px;
        font: 15px/1.4 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Noto Sans",
          "Noto Sans CJK JP", "Noto Color Emoji", sans-serif;
      }
      @media (prefers-color-scheme: dark) {
        :root {
          --page: #121214; --card: #2a2a2e; --text: #f2f2f7; --muted: #a7a7b0; --pill: #3a3a40;
          --layer-1: #232327; --layer-2: #1c1c1f; --dot: #4c9dff; --link: #6cb6ff;
          --badge: #4ac26b; --badge-text: #06240e; --danger: #ff7b72; --focus: #6cb6ff;
        }
      }
      * { box-sizing: border-box; }
      body { margin: 0; padding: 20px 12px 32px; background: var(--page); color: var(--text); }
      main, .day { display: flex; flex-direction: column; gap: 12px; }
      main { max-width: 480px; margin: 0 auto; }
      .top { display: flex; align-items: baseline; gap: 10px; margin: 0 4px 4px; }
      h1 { font-size: 26px; margin: 0; }
      .tally { margin: 0; color: var(--muted); font-weight: 600; }
      .day > h2 { font-size: 13px; font-weight: 600; color: var(--muted); margin: 8px 4px 0; }
      .empty, .cut { color: var(--muted); text-align: center; margin: 4px 0 0; }
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
      .item > header { display: flex; align-items: baseline; gap: 6px; min-width: 0;
        font-size: 13px; color: var(--muted); }
      .app { font-weight: 600; color: var(--text); overflow: hidden; text-overflow: ellipsis;
        white-space: nowrap; min-width: 0; }
      .relevance { font-size: 12px; }
      .badge, .dot, time { margin-left: auto; white-space: nowrap; }
      .badge + time, .dot + time { margin-left: 0; }
      .badge { background: var(--badge); color: var(--badge-text); border-radius: 9px;
        padding: 0 7px; font-size: 11px; font-weight: 700; letter-spacing: 0.03em; }
      .dot { width: 9px; height: 9px; border-radius: 50%; flex: none; align-self: center;
        background: var(--dot); }
      .title, .subtitle, .body, .target, .line, .actions { margin: 2px 0 0;
        overflow-wrap: anywhere; }
      .title { font-size: 15px; font-weight: 600; white-space: nowrap; overflow: hidden;
        text-overflow: ellipsis; }
      .subtitle { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
      .body { white-space: pre-line; display: -webkit-box; -webkit-box-orient: vertical;
        -webkit-line-clamp: 2; line-clamp: 2; overflow: hidden; }
      .tap { display: block; color: inherit; text-decoration: none; border-radius: 6px; }
      .tap:hover .title { text-decoration: underline; }
      .opens { display: block; margin-top: 2px; font-size: 12px; color: var(--link);
        text-decoration: underline; white-space: nowrap; overflow: hidden;
        text-overflow: ellipsis; }
      a:focus-visible, summary:focus-visible { outline: 3px solid var(--focus);
        outline-offset: 2px; }
      .target { color: var(--muted); font-size: 12px; }
      .line { color: var(--muted); font-size: 13px; }
      details > summary { cursor: pointer; list-style: none; }
      details > summary::-webkit-details-marker { display: none; }
      .more { margin-top: 4px; font-size: 13px; color: var(--muted); }
      .more > summary { display: inline-block; border-radius: 4px; }
      .more > summary::after, .stack > details > summary::after { content: "";
        display: inline-block; width: 6px; height: 6px; margin: 0 2px 2px 8px;
        border: solid currentColor;
        border-width: 0 2px 2px 0; transform: rotate(45deg); }
      details[open] > summary::after { margin-bottom: -1px; transform: rotate(-135deg); }
      .actions { list-style: none; padding: 0; display: flex; flex-wrap: wrap; }
      .actions li + li::before { content: "\\00B7"; padding: 0 7px; color: var(--muted); }
      .actions .destructive { color: var(--danger); }
      .stack { display: flex; flex-direction: column; isolation: isolate; }
      .stacked > .leading { margin-bottom: 16px; }
      .stacked > .leading::before, .stacked > .leading::after { content: ""; position: absolute;
        height: 32px; border-radius: 0 0 14px 14px; box-shadow: 0 1px 3px rgb(0 0 0 / 0.2); }
      .stacked > .leading::before { left: 10px; right: 10px; bottom: -8px; z-index: -1;
        background: var(--layer-1); }
      .stacked > .leading::after { left: 22px; right: 22px; bottom: -16px; z-index: -2;
        background: var(--layer-2); }
      .stacked:has(> details[open]) > .leading { margin-bottom: 0; }
      .stacked:has(> details[open]) > .leading::before,
      .stacked:has(> details[open]) > .leading::after { display: none; }
      .stack > details > summary { width: fit-content; margin: 0 4px 0 auto; padding: 3px 12px;
        border-radius: 14px; background: var(--pill); color: var(--text); font-size: 13px;
        font-weight: 600; }
      .stack > details > .item { margin-top: 8px; }
      details:not([open]) .less, details[open] > summary > .show { display: none; }
      .unlisted { margin: 8px 4px 0; color: var(--muted); font-size: 13px; text-align: center; }
      code { font-size: 12px; }
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
        .item, .stack > details > summary, .stacked > .leading::before,
        .stacked > .leading::after { border: 1px solid CanvasText; }
        .dot { background: CanvasText; }
      }

      """
}
