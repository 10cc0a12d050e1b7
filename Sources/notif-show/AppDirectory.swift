import NotifJSON
import NotifModel

/// The apps file that `--apps` names (notif-show(1), "Apps files"): each app's display name
/// and icon, by the identifier records carry in `app`: a bundle identifier, an Android package
/// name, or a web origin.
///
/// ```json
/// {"com.example.chat": {"name": "Chat", "icon": "icons/chat.png"},
///  "https://news.example.com": {"name": "Example News", "icon": "data:image/svg+xml;base64,PHN2Zy…"}}
/// ```
///
/// Read with `ConfigFile`, as every configuration file is: `Unreadable`, the JSON reader's
/// codes, or `BadApps` for what this format refuses, each at FILE:LINE:COL. An icon is a PNG,
/// JPEG or SVG image of at most `AppIcon.maxBytes`: a file, read with the apps file and named
/// relative to its folder, or a `data:` URI in base64. Identifiers are compared byte for byte,
/// as category identifiers are. An app the file does not name, or names without a `name`, is
/// shown by a name made from its identifier (`derivedName(of:)`), never the identifier
/// upper-cased.
struct AppDirectory: Equatable {
  /// What the file says of one app.
  struct Entry: Equatable {
    var name: String?
    var icon: AppIcon?
  }

  /// The code of an apps file that is JSON but not what this format allows.
  static let code = "BadApps"

  /// By the identifier's UTF-8 bytes: `String` keys would make `"\u00e9"` and `"e\u0301"` one.
  private(set) var entries: [[UInt8]: Entry] = [:]

  /// No apps file: every app is shown by its derived name.
  init() {}

  /// The entry of the app `id`, if the file names it.
  subscript(id: String) -> Entry? {
    entries[Array(id.utf8)]
  }

  /// Loads the apps file at `path`, and the icon files it names, relative to its folder.
  ///
  /// - Throws: `ConfigFileError`: `Unreadable`, the JSON parser's codes, or `BadApps`.
  static func load(_ path: String) throws(ConfigFileError) -> AppDirectory {
    try ConfigFile.load(path, as: "an apps file", code: code) {
      view throws(ConfigFile.Rejection) in try AppDirectory(view, folder: folder(of: path))
    }.value
  }

  /// The folder of the file at `path`, as icon names are read from it: `""` for a name with no
  /// `/` (the working directory), else the path up to and with its last `/`.
  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    return String(path[...slash])
  }

  /// Reads an apps file from its parsed JSON text, whose root is an object (`ConfigFile`
  /// checks); icon paths are relative to `folder` (`""`: the working directory; else ends in
  /// `/`).
  ///
  /// - Throws: `ConfigFile.Rejection` for a shape other than the documented one, and for an
  ///   icon that cannot be read or is no PNG, JPEG or SVG image of at most `AppIcon.maxBytes`.
  init(_ view: JSONView, folder: String) throws(ConfigFile.Rejection) {
    try view.forEachMember(of: 0) { key, value throws(ConfigFile.Rejection) in
      let id = view.stringBytes(key)
      guard !id.isEmpty else {
        throw Self.rejection(view, key, "an app's identifier is empty")
      }
      entries[id] = try Self.entry(view, value, app: view.string(key), folder: folder)
    }
  }

  private static func rejection(_ view: JSONView, _ index: Int, _ message: String)
    -> ConfigFile.Rejection
  {
    ConfigFile.Rejection(offset: Int(view.tokens[index].start), message: message)
  }

  /// What the value at `index` is, for a message: `a number`, `an empty string`.
  private static func phrase(_ view: JSONView, _ index: Int) -> String {
    view.stringValue(index)?.isEmpty == true ? "an empty string" : view.kind(index).phrase
  }

  private static func entry(_ view: JSONView, _ value: Int, app: String, folder: String)
    throws(ConfigFile.Rejection) -> Entry
  {
    let shown = Diagnostic.visible(app)
    guard view.kind(value) == .object else {
      throw rejection(
        view, value,
        "app '\(shown)' must be an object with a name and an icon, not "
          + view.kind(value).phrase)
    }
    var entry = Entry()
    try view.forEachMember(of: value) { key, member throws(ConfigFile.Rejection) in
      switch view.string(key) {
      case "name":
        guard let name = view.stringValue(member), !name.isEmpty else {
          throw rejection(
            view, member,
            "the name of app '\(shown)' must be a non-empty string, not \(phrase(view, member))")
        }
        entry.name = name
      case "icon":
        guard let icon = view.stringValue(member), !icon.isEmpty else {
          throw rejection(
            view, member,
            "the icon of app '\(shown)' must be a file name or a data: URI, not "
              + phrase(view, member))
        }
        do throws(AppIcon.Problem) {
          entry.icon = try AppIcon(named: icon, folder: folder)
        } catch {
          throw rejection(view, member, "the icon of app '\(shown)': \(error.message)")
        }
      case let other:
        throw rejection(
          view, key,
          "unknown key '\(Diagnostic.visible(other))' in app '\(shown)': an app has name and icon"
        )
      }
    }
    return entry
  }

  // MARK: - Names

  /// The app `id` as the views show it: its entry's name and icon, else a name made from
  /// the identifier (`derivedName(of:)`); `(no app)` for none.
  func app(_ id: String?) -> ShownApp {
    guard let id, !id.isEmpty else {
      return ShownApp(id: "", name: "(no app)", icon: nil)
    }
    let entry = self[id]
    return ShownApp(id: id, name: entry?.name ?? Self.derivedName(of: id), icon: entry?.icon)
  }

  /// A readable name made from an app's identifier, where the apps file gives none:
  ///
  /// - a bundle identifier or package name (two or more dot-separated parts of ASCII letters,
  ///   digits, `-` and `_`): its last part, `-` and `_` as spaces, each word's first letter
  ///   upper-cased (`com.example.chat` is `Chat`, `org.example.my_app` is `My App`,
  ///   `com.apple.MobileSMS` stays `MobileSMS`);
  /// - a web origin (`https://news.example.com:8443`): its host, `news.example.com`;
  /// - anything else: the identifier as it is.
  static func derivedName(of id: String) -> String {
    if let host = host(ofOrigin: id) { return host }
    let parts = id.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard parts.count >= 2,
      parts.allSatisfy({ part in !part.isEmpty && part.allSatisfy(isIdentifierByte) }),
      let last = parts.last
    else { return id }
    var name: [UInt8] = []
    var startsWord = true
    for byte in last {
      if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") {
        if !startsWord { name.append(UInt8(ascii: " ")) }
        startsWord = true
        continue
      }
      let lower = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
      name.append(startsWord && lower ? byte - 0x20 : byte)
      startsWord = false
    }
    while name.last == UInt8(ascii: " ") { name.removeLast() }
    return name.isEmpty ? id : String(decoding: name, as: UTF8.self)
  }

  private static func isIdentifierByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
      return true
    default:
      return false
    }
  }

  /// The host of a web origin, `scheme://host[:port]` with an optional final `/`, lowercased;
  /// nil for anything else.
  static func host(ofOrigin id: String) -> String? {
    let bytes = Array(id.utf8)
    guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
      bytes[colon...].starts(with: Array("://".utf8))
    else { return nil }
    let scheme = bytes[..<colon]
    guard
      scheme.allSatisfy({ byte in
        isIdentifierByte(byte) && byte != UInt8(ascii: "_") || byte == UInt8(ascii: "+")
          || byte == UInt8(ascii: ".")
      })
    else { return nil }
    var rest = bytes[(colon + 3)...]
    if rest.last == UInt8(ascii: "/") { rest = rest.dropLast() }
    var host = rest[...]
    if let portColon = rest.lastIndex(of: UInt8(ascii: ":")), rest.last != UInt8(ascii: "]") {
      let port = rest[(portColon + 1)...]
      guard !port.isEmpty, port.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
      host = rest[..<portColon]
    }
    let hostByte: (UInt8) -> Bool = { byte in
      isIdentifierByte(byte) && byte != UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: ":")
    }
    guard !host.isEmpty, host.allSatisfy(hostByte) else { return nil }
    return String(decoding: host, as: UTF8.self).lowercased()
  }
}

/// An app as the views show it: its identifier, its display name and its icon, if any.
struct ShownApp {
  /// The record's `app`; empty for none.
  var id: String
  /// The name shown: the apps file's, else one made from `id`. Not yet written visibly.
  var name: String
  var icon: AppIcon?

  /// The letter shown on the app's color where it has no icon: the first character of its
  /// name, upper-cased when that gives one character; `?` when the name starts with nothing
  /// that can stand for it (a space, a control, punctuation, an ASCII symbol such as `<`).
  var initial: String {
    guard let first = name.first,
      first.isLetter || first.isNumber || (first.isSymbol && !first.isASCII)
    else {
      return "?"
    }
    let upper = first.uppercased()
    return upper.count == 1 ? upper : String(first)
  }

  /// The color of the initial, one of `count`, the same for an identifier on every page and
  /// machine: FNV-1a of its UTF-8 bytes.
  func color(of count: Int) -> Int {
    var hash: UInt32 = 2_166_136_261
    for byte in id.utf8 {
      hash = (hash ^ UInt32(byte)) &* 16_777_619
    }
    return Int(hash % UInt32(count))
  }
}
