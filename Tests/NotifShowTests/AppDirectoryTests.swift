import Foundation
import NotifModel
import TestSupport
import Testing

@testable import notif_show

/// The apps file (`--apps`): names made from identifiers, icons read and embedded, and what the
/// format refuses.
@Suite struct AppDirectoryTests {
  @Test(arguments: [
    ("com.example.chat", "Chat"), ("org.example.my_app", "My App"),
    ("com.example.photo-booth", "Photo Booth"), ("com.apple.MobileSMS", "MobileSMS"),
    ("com.example.app2", "App2"), ("com.example.x--y_", "X Y"),
    ("https://news.example.com", "news.example.com"),
    ("https://news.example.com:8443/", "news.example.com"),
    ("HTTPS://Shop.Example.COM", "shop.example.com"), ("http://[::1]:8080", "[::1]"),
    ("chrome-extension://abcdef", "abcdef"),
    // Anything else is shown as it is.
    ("chat", "chat"), ("com..chat", "com..chat"), ("com.example.", "com.example."),
    ("com.example.café", "com.example.café"), ("weird id", "weird id"),
    ("https://news.example.com/path", "https://news.example.com/path"),
    ("https://news.example.com:http", "https://news.example.com:http"),
    ("https://", "https://"), ("://x", "://x"), ("com.example.-", "com.example.-"),
  ])
  func aNameIsMadeFromTheIdentifier(_ id: String, _ name: String) {
    #expect(AppDirectory.derivedName(of: id) == name)
  }

  @Test func noAppIsNoApp() {
    #expect(AppDirectory().app(nil).name == "(no app)")
    #expect(AppDirectory().app("").name == "(no app)")
    #expect(AppDirectory().app(nil).initial == "?")
  }

  @Test(arguments: [
    ("Chat", "C"), ("chat", "C"), ("日程表", "日"), ("📅 Calendar", "📅"), ("ßeta", "ß"),
    ("<b>", "?"), (" x", "?"), ("\u{1B}[2J", "?"), ("\u{202E}abc", "?"), ("1Password", "1"),
  ])
  func theInitialIsTheFirstCharacterThatCanStandForTheName(_ name: String, _ initial: String) {
    #expect(ShownApp(id: "x", name: name, icon: nil).initial == initial)
  }

  @Test func theColorOfAnIdentifierIsTheSameEveryTime() {
    let chat = ShownApp(id: "com.example.chat", name: "Chat", icon: nil)
    #expect(
      chat.color(of: 10) == ShownApp(id: "com.example.chat", name: "x", icon: nil).color(of: 10))
    let colors = Set(
      ["a", "b", "c", "d", "e", "f", "g", "h"].map {
        ShownApp(id: "com.example.\($0)", name: "", icon: nil).color(of: 10)
      })
    #expect(colors.count > 3)
  }

  static let samples: [[UInt8]] = [
    [], [0], [0, 1], [0, 1, 2], Array("<svg/>".utf8), (0...255).map { UInt8($0) },
  ]

  @Test(arguments: samples)
  func base64RoundTrips(_ bytes: [UInt8]) {
    let text = Base64.encode(bytes)
    #expect(text.utf8.count % 4 == 0)
    #expect(Base64.decode(Array(text.utf8)) == bytes)
  }

  @Test func base64IsRFC4648() {
    #expect(Base64.encode(Array("foobar".utf8)) == "Zm9vYmFy")
    #expect(Base64.encode(Array("fooba".utf8)) == "Zm9vYmE=")
    #expect(Base64.encode(Array("foob".utf8)) == "Zm9vYg==")
    for bad in ["Zm9", "Zm9v YmFy", "Zm=vYmFy", "Zm9vYg=a", "Zm9vYmF-", "====", "Zg==Zg=="] {
      #expect(Base64.decode(Array(bad.utf8)) == nil, "\(bad)")
    }
  }

  static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]

  @Test func theKindOfAnIconIsReadFromItsBytes() {
    #expect(AppIcon.kind(of: Self.png) == .png)
    #expect(AppIcon.kind(of: [0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
    #expect(AppIcon.kind(of: Array("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8)) == .svg)
    #expect(
      AppIcon.kind(of: [0xEF, 0xBB, 0xBF] + Array("\n <?xml version='1.0'?><svg/>".utf8)) == .svg)
    #expect(AppIcon.kind(of: Array("<html><body>svg</body></html>".utf8)) == nil)
    #expect(AppIcon.kind(of: Array("an svg, later: <svg/>".utf8)) == nil)
    #expect(AppIcon.kind(of: Array("<svg".utf8) + [0xFF]) == nil)  // not UTF-8
    #expect(AppIcon.kind(of: Array("GIF89a".utf8)) == nil)
  }

  @Test func aDataURIIsReadAndWrittenBackInBase64() throws {
    let svg = Array("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8)
    let uri = "data:image/svg+xml;base64," + Base64.encode(svg)
    let icon = try AppIcon(named: uri, folder: "")
    #expect(icon.kind == .svg)
    #expect(icon.bytes == svg)
    #expect(icon.dataURI == uri)
    #expect(
      try AppIcon(named: "DATA:IMAGE/SVG+XML;BASE64," + Base64.encode(svg), folder: "") == icon)
  }

  @Test(arguments: [
    (
      "data:image/png;base64," + Base64.encode(Array("<svg/>".utf8)),
      "the data is image/svg+xml, not image/png"
    ),
    (
      "data:image/gif;base64,R0lGODlh",
      "a data: URI is data:image/png;base64, data:image/jpeg;base64, or data:image/svg+xml;base64,"
    ),
    (
      "data:image/svg+xml,<svg/>",
      "a data: URI is data:image/png;base64, data:image/jpeg;base64, or data:image/svg+xml;base64,"
    ),
    ("data:image/png;base64", "a data: URI has a comma before its data"),
    ("data:image/png;base64,iVBOR w0K", "the data of a data: URI is not base64"),
    (
      "data:image/png;base64," + Base64.encode(Array("plain text".utf8)),
      "not a PNG, JPEG or SVG image"
    ),
    (
      "data:image/png;base64," + Base64.encode(png + [UInt8](repeating: 0, count: 65536)),
      "the image is more than the limit of 65536 bytes"
    ),
  ])
  func aDataURIThatIsNoIconIsRefused(_ uri: String, _ message: String) {
    #expect(throws: AppIcon.Problem(message: message)) { try AppIcon(named: uri, folder: "") }
  }

  @Test func anIconFileIsReadRelativeToTheAppsFileAndMustBeASmallImage() throws {
    let folder = try makeScratchFolder("notif-show-apps")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("icons/folder.png"), withIntermediateDirectories: true)
    try Data(Self.png).write(to: folder.appendingPathComponent("icons/chat.png"))
    try Data(Self.png + [UInt8](repeating: 0, count: 65536 - Self.png.count))
      .write(to: folder.appendingPathComponent("icons/largest.png"))
    try Data(Self.png + [UInt8](repeating: 0, count: 65537 - Self.png.count))
      .write(to: folder.appendingPathComponent("icons/large.png"))
    let apps = """
      {"com.example.chat": {"name": "Chat", "icon": "icons/chat.png"},
       "com.example.large": {"icon": "icons/largest.png"}}
      """
    try Data(apps.utf8).write(to: folder.appendingPathComponent("apps.json"))
    let directory = try AppDirectory.load(folder.appendingPathComponent("apps.json").path)
    #expect(
      directory["com.example.chat"]
        == .init(name: "Chat", icon: try .init(kind: .png, bytes: Self.png)))
    #expect(directory.app("com.example.large").name == "Large")
    #expect(directory.app("com.example.large").icon?.bytes.count == 65536)
    #expect(
      throws: AppIcon.Problem(message: "the image is 65537 bytes, more than the limit of 65536")
    ) {
      try AppIcon(named: "icons/large.png", folder: folder.path + "/")
    }
    #expect(throws: AppIcon.Problem(message: "'icons/folder.png' is not a regular file")) {
      try AppIcon(named: "icons/folder.png", folder: folder.path + "/")
    }
    // A FIFO is refused before it is read, so a name cannot block the run.
    let fifo = folder.appendingPathComponent("icons/fifo.png").path
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(throws: AppIcon.Problem(message: "'icons/fifo.png' is not a regular file")) {
      try AppIcon(named: "icons/fifo.png", folder: folder.path + "/")
    }
  }

  /// Identifiers are compared by their bytes, as JSON and category registries compare keys.
  @Test func identifiersAreComparedByteForByte() throws {
    let folder = try makeScratchFolder("notif-show-apps")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("apps.json").path
    try Data(#"{"com.example.caf\u00e9": {"name": "Composed"}}"#.utf8).write(
      to: URL(fileURLWithPath: path))
    let directory = try AppDirectory.load(path)
    #expect(directory.app("com.example.caf\u{E9}").name == "Composed")
    #expect(directory.app("com.example.cafe\u{301}").name == "com.example.cafe\u{301}")
  }

  @Test(arguments: [
    (#"{"": {"name": "x"}}"#, "apps.json:1:2: error: an app's identifier is empty [BadApps]"),
    (
      #"{"a.b": "Chat"}"#,
      "apps.json:1:9: error: app 'a.b' must be an object with a name and an icon, not a string [BadApps]"
    ),
    (
      #"{"a.b": {"name": ""}}"#,
      "apps.json:1:18: error: the name of app 'a.b' must be a non-empty string, not an empty string [BadApps]"
    ),
    (
      #"{"a.b": {"icon": null}}"#,
      "apps.json:1:18: error: the icon of app 'a.b' must be a file name or a data: URI, not null [BadApps]"
    ),
    (
      #"{"a\u001bb": {"Name": "x"}}"#,
      #"apps.json:1:15: error: unknown key 'Name' in app 'a\eb': an app has name and icon [BadApps]"#
    ),
    (#"["a.b"]"#, "apps.json:1:1: error: an apps file is one JSON object, not an array [BadApps]"),
  ])
  func whatTheFormatRefusesIsBadAppsAtItsPlace(_ text: String, _ diagnostic: String) throws {
    let folder = try makeScratchFolder("notif-show-apps")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("apps.json").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    do {
      _ = try AppDirectory.load(path)
      Issue.record("\(text) loads")
    } catch {
      #expect(
        DiagnosticFormat.text.render(error.diagnostic, program: "notif-show")
          == "notif-show: " + folder.path + "/" + diagnostic + "\n")
    }
  }
}
