import NotifCLI
import NotifJSON
import NotifModel

/// Where a tap on a notification takes the user, when its payload names a URL for it: the
/// tap action of the seeds, shown as a link on the web page and as the line it opens in a
/// terminal. The payload is untrusted, so only a URL of a scheme that opens a page or the app
/// is a link: `https` and `http`, and an app's own scheme where `--link-scheme` names it; never
/// `javascript:`, `data:` or `vbscript:`, which run or forge content in the page that shows
/// them. A URL with a control character or a space in it is no link either: browsers drop tabs
/// and line feeds from a URL before they read its scheme (`java\tscript:` is `javascript:`).
///
/// Where the URL is, by the vendor's field for it:
/// - FCM HTTP v1: `message.webpush.fcm_options.link`, "the link to open when the user clicks
///   on the notification" (Firebase, projects.messages, WebpushFcmOptions);
/// - Declarative Web Push: `notification.navigate`, the URL the user agent opens on
///   activation (W3C Push API, declarative push message);
/// - any source: the member `--link-key` names (`url`, `data.url`), for an app that sends its
///   own (an APNs custom key, Expo's `data`).
///
/// `target_content_id` is not a URL: it says which of the app's windows to bring forward, and
/// identifies the item.
struct TapLink: Sendable {
  /// The schemes, lower-cased, that make a link besides `https` and `http` (`--link-scheme`).
  var appSchemes: [String] = []
  /// `--link-key`: the path of members, from the payload, of a URL the app sends itself.
  var key: [[UInt8]]? = nil

  /// The schemes that can never be a link, whatever `--link-scheme` says.
  static let refused = ["javascript", "data", "vbscript"]
  /// The longest URL kept as a link; a longer one is none (browsers cap theirs near here).
  static let maxBytes = 8192

  /// `--link-scheme` (comma-separated, repeatable) and `--link-key`.
  init(schemes: [String], key: String?) throws(UsageError) {
    for list in schemes {
      for scheme in list.split(separator: ",", omittingEmptySubsequences: false) {
        let name = scheme.lowercased()
        guard Self.isScheme(Substring(name)) else {
          throw UsageError(
            "--link-scheme: '\(scheme)' is not a URL scheme (a letter, then letters, digits, +, - or .)"
          )
        }
        guard !Self.refused.contains(name) else {
          throw UsageError("--link-scheme: '\(name):' runs or forges content; it is never a link")
        }
        if !appSchemes.contains(name) { appSchemes.append(name) }
      }
    }
    if let key {
      let path = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
      guard !path.contains(where: \.isEmpty) else {
        throw UsageError("--link-key: '\(key)' is not a path of member names such as data.url")
      }
      self.key = path.map { Array($0.utf8) }
    }
  }

  init() {}

  /// The URL a tap on the record opens: the vendor's field of `source`, else the member of
  /// `--link-key`; nil where the payload names none that is a safe link.
  func link(_ view: JSONView, payload: Int, source: Int) -> String? {
    guard payload >= 0, view.kind(payload) == .object else { return nil }
    var found: Int? = nil
    if source >= 0, view.kind(source) == .string {
      if view.keyEquals(source, "fcm") {
        found = Self.find(view, payload, Self.fcmLink)
      } else if view.keyEquals(source, "webpush") {
        found = Self.find(view, payload, Self.declarativeNavigate)
      }
    }
    if found == nil, let key { found = Self.find(view, payload, key) }
    guard let found, view.kind(found) == .string, view.rawString(found).count <= Self.maxBytes
    else { return nil }
    let url = view.string(found)
    return isSafe(url) ? url : nil
  }

  /// Whether `url` is a link this page may make: an absolute URL of an allowed scheme, with no
  /// control character, space or DEL anywhere in it.
  func isSafe(_ url: String) -> Bool {
    guard
      !url.unicodeScalars.contains(where: {
        $0.value <= 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}"
          || $0 == "\u{2029}"
      }),
      let colon = url.firstIndex(of: ":")
    else { return false }
    let scheme = url[..<colon].lowercased()
    guard Self.isScheme(Substring(scheme)), !Self.refused.contains(scheme) else { return false }
    if scheme == "https" || scheme == "http" {
      // An address with a host: `https:` alone, or `https:/x`, opens nothing.
      return url[url.index(after: colon)...].hasPrefix("//") && url.count > scheme.count + 3
    }
    return appSchemes.contains(scheme) && url.count > scheme.count + 1
  }

  /// Whether `text` is a URL scheme: an ASCII letter, then letters, digits, `+`, `-` or `.`.
  static func isScheme(_ text: Substring) -> Bool {
    guard let first = text.unicodeScalars.first,
      ("a"..."z").contains(first) || ("A"..."Z").contains(first)
    else { return false }
    return text.unicodeScalars.allSatisfy {
      $0.isASCII
        && (("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
          || $0 == "+" || $0 == "-" || $0 == ".")
    }
  }

  static let fcmLink = ["message", "webpush", "fcm_options", "link"].map { Array($0.utf8) }
  static let declarativeNavigate = ["notification", "navigate"].map { Array($0.utf8) }

  /// The value at `path` of members from the object at `index`; nil where one is missing.
  static func find(_ view: JSONView, _ index: Int, _ path: [[UInt8]]) -> Int? {
    var current = index
    for name in path {
      guard let next = view.member(current, bytes: name) else { return nil }
      current = next
    }
    return current
  }
}
