import Foundation
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import notif_show

/// The web page and the page for a mail (issue 41): a card whose record names a safe URL is a
/// link to it, one whose URL runs or forges content, or that names none, is not; and each card
/// shows one of the three read states, one way.
@Suite struct PageTests {
  static let formats = ["html", "email"]

  /// `text` as a JSON string's contents, escaped as the tools escape strings.
  static func json(_ text: String) -> String {
    var out = ByteBuffer()
    JSONEscapes.writeString(text, into: &out)
    return String(out.text.dropFirst().dropLast())
  }

  /// A record of an FCM HTTP v1 message whose `webpush.fcm_options.link` is `link`, or that
  /// has none.
  static func fcm(_ link: String?) -> String {
    let options = link.map { #","webpush":{"fcm_options":{"link":"\#(json($0))"}}"# } ?? ""
    return #"{"id":"f1","app":"com.example.shop","title":"Shipped","body":"Track it.","#
      + #""created_at":"2026-11-22T08:50:00Z","read_at":null,"seen_at":null,"source":"fcm","#
      + #""payload":{"message":{"notification":{"title":"Shipped"}\#(options)}}}"# + "\n"
  }

  /// A record of an APNs payload with a top-level member `url`.
  static func apns(url: String) -> String {
    #"{"id":"a1","app":"com.example.chat","title":"Alice","body":"See the thread.","#
      + #""created_at":"2026-11-22T08:50:00Z","read_at":null,"seen_at":null,"source":"apns","#
      + #""payload":{"aps":{"alert":{"title":"Alice"}},"url":"\#(json(url))"}}"# + "\n"
  }

  /// The page of `input` in `format`, with `arguments`; expects success.
  static func page(_ input: String, _ format: String, _ arguments: [String] = []) throws
    -> String
  {
    let result = try show(input, ["--to", format, "--now", now] + arguments)
    #expect(result.status == .success, "\(result.err)")
    return result.out
  }

  /// The `<a` elements of a page.
  static func links(_ page: String) -> [Substring] {
    page.split(separator: "<a ").dropFirst().map { $0.prefix { $0 != ">" } }
  }

  @Test(arguments: formats)
  func aSafeURLIsALinkThatOpensNothingOfThePage(_ format: String) throws {
    let out = try Self.page(Self.fcm("https://example.com/x"), format)
    #expect(out.contains(#"<a href="https://example.com/x" rel="noopener noreferrer""#))
    #expect(Self.links(out).count == 1)
  }

  @Test(
    arguments: formats,
    [
      "javascript:alert(1)", "JaVaScRiPt:alert(1)", "java\tscript:alert(1)",
      "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)", " https://x.example/",
      "https:", "https:/x", "myapp://thread/1", nil,
    ])
  func anUnsafeURLOrNoneIsNoLink(_ format: String, _ link: String?) throws {
    let out = try Self.page(Self.fcm(link), format)
    #expect(!out.contains("<a "), "\(String(describing: link))")
    #expect(!out.contains("href"))
  }

  @Test(arguments: formats)
  func aDeclarativeWebPushLinksWhereItNavigates(_ format: String) throws {
    let record =
      #"{"id":"w1","app":"example.com","title":"Hi","created_at":"2026-11-22T08:50:00Z","#
      + #""read_at":null,"seen_at":null,"source":"webpush","payload":{"web_push":8030,"#
      + #""notification":{"title":"Hi","navigate":"https://example.com/a"}}}"# + "\n"
    let out = try Self.page(record, format)
    #expect(out.contains(#"<a href="https://example.com/a" rel="noopener noreferrer""#))
  }

  @Test(arguments: formats)
  func anAppSchemeIsALinkOnlyWhereLinkSchemeNamesIt(_ format: String) throws {
    let record = Self.fcm("myapp://thread/1")
    #expect(!(try Self.page(record, format)).contains("<a "))
    let named = try Self.page(record, format, ["--link-scheme", "myapp"])
    #expect(named.contains(#"<a href="myapp://thread/1" rel="noopener noreferrer""#))
    let upper = try Self.page(record, format, ["--link-scheme", "other,MyApp"])
    #expect(upper.contains(#"<a href="myapp://thread/1""#))
  }

  @Test(arguments: ["javascript", "JavaScript", "data", "vbscript", "1x", "my app"])
  func aLinkSchemeThatRunsContentOrIsNoSchemeIsAUsageError(_ scheme: String) throws {
    let result = try show(Self.fcm(nil), ["--to", "html", "--link-scheme", scheme])
    #expect(result.status == .failure)  // exit 2: a usage error
    #expect(result.out.isEmpty)
    #expect(result.err.contains("--link-scheme: '"))
  }

  @Test(arguments: formats)
  func linkKeyReadsAMemberOfTheAPNsPayload(_ format: String) throws {
    let record = Self.apns(url: "https://example.com/thread/1?a=1&b=2")
    #expect(!(try Self.page(record, format)).contains("<a "))
    let out = try Self.page(record, format, ["--link-key", "url"])
    #expect(
      out.contains(
        #"<a href="https://example.com/thread/1?a=1&amp;b=2" rel="noopener noreferrer""#))
    let unsafe = try Self.page(
      Self.apns(url: "javascript:alert(1)"), format, ["--link-key", "url"])
    #expect(!unsafe.contains("<a "))
  }

  @Test(arguments: formats)
  func hiddenPreviewsLinkNothing(_ format: String) throws {
    let out = try Self.page(Self.fcm("https://example.com/x"), format, ["--hidden-previews"])
    #expect(!out.contains("<a "))
  }

  @Test func theWebPageSaysTheHostALinkOpensNotAUserNamePosingAsOne() throws {
    let out = try Self.page(Self.fcm("https://bank.example@evil.example/login"), "html")
    #expect(out.contains(#"<span class="opens" dir="auto">Opens evil.example</span>"#))
    #expect(HTMLPage.destination("https://example.com") == "example.com")
    #expect(HTMLPage.destination("http://a.example:8080/x?y#z") == "a.example:8080")
    #expect(HTMLPage.destination("myapp://thread/1") == "myapp:")
    // Browsers read a backslash as a slash in an http(s) URL: the host ends there.
    #expect(HTMLPage.destination(#"https://evil.example\@bank.example/"#) == "evil.example")
  }

  /// A record `id`, read or not, seen or not.
  static func record(_ id: String, minute: Int, read: Bool, seen: Bool) -> String {
    let at = "2026-11-22T08:\(minute < 10 ? "0" : "")\(minute):00Z"
    return #"{"id":"\#(id)","app":"com.example.chat","title":"\#(id)","created_at":"\#(at)","#
      + #""read_at":\#(read ? "\"\(at)\"" : "null"),"seen_at":\#(seen ? "\"\(at)\"" : "null")}"#
  }

  /// A feed of a read, an unread and a new record, and stacks whose counts say new, unread
  /// and read, one with its items.
  static let feed =
    [
      record("read", minute: 1, read: true, seen: true),
      record("unread", minute: 2, read: false, seen: true),
      record("new", minute: 3, read: false, seen: false),
      limitGroupObject(
        app: "com.example.a", count: "3", unread: "2", fresh: "1", moreCount: "2",
        moreWeight: "2", categories: [("2", "2")],
        items: [
          record("item-new", minute: 4, read: false, seen: false),
          record("item-read", minute: 5, read: true, seen: true),
        ], omitted: "0"),
      limitGroupObject(
        app: "com.example.b", count: "2", unread: "2", fresh: "0", moreCount: "1",
        moreWeight: "1", categories: [("1", "1")]),
      limitGroupObject(
        app: "com.example.c", count: "2", unread: "0", fresh: "0", moreCount: "1",
        moreWeight: "1", categories: [("1", "1")]),
    ].joined(separator: "\n") + "\n"

  /// The marks of each card of a page: its "New" badges and its unread dots.
  static func marks(_ page: String, card: String, new: String, unread: String) -> [(Int, Int)] {
    page.components(separatedBy: card).dropFirst().map { rest in
      let card = rest.components(separatedBy: "</article>")[0]
      return (
        card.components(separatedBy: new).count - 1, card.components(separatedBy: unread).count - 1
      )
    }
  }

  @Test func eachCardOfTheWebPageShowsOneReadState() throws {
    let out = try Self.page(Self.feed, "html")
    let cards = out.components(separatedBy: "<article class=\"").dropFirst().map {
      String($0.prefix { $0 != "\"" })
    }
    let marks = Self.marks(
      out, card: "<article", new: #"<span class="badge">New</span>"#,
      unread: #"aria-label="unread""#)
    #expect(cards.count == 8)
    for (classes, (new, unread)) in zip(cards, marks) {
      #expect(new + unread <= 1, "\(classes)")
      if classes.hasSuffix(" new") { #expect(new == 1 && unread == 0, "\(classes)") }
      if classes.hasSuffix(" unread") { #expect(new == 0 && unread == 1, "\(classes)") }
      if classes.hasSuffix(" read") { #expect(new == 0 && unread == 0, "\(classes)") }
    }
    // Every state is on the page: the records' own, and the stacks' from their counts.
    #expect(
      cards == [
        "item leading new", "item other read", "item other new", "item leading unread",
        "item leading read", "item new", "item unread", "item read",
      ])
    #expect(!out.contains("class=\"count\""))
  }

  @Test func eachCardOfThePageForAMailShowsOneReadState() throws {
    let out = try Self.page(Self.feed, "email")
    // A card's notifications each start with the header's paragraph.
    let marks = Self.marks(
      out, card: #"<p class="muted" style="margin:0;font-size:13px;"#, new: ">New</span>",
      unread: #"aria-label="unread""#)
    #expect(marks.count == 8)
    #expect(marks.map { $0.0 + $0.1 } == [1, 0, 1, 1, 0, 1, 1, 0])
    #expect(marks.map(\.0) == [1, 0, 1, 0, 0, 1, 0, 0])
  }

  @Test func theHeaderCountsTheUnreadAndTheFooterWhatLimitCut() throws {
    let out = try Self.page(Self.feed, "html", ["--limit", "2"])
    #expect(out.contains(#"<p class="tally">6 unread</p>"#))
    #expect(out.contains(#"<footer class="cut">4 older notifications</footer>"#))
    let mail = try Self.page(Self.feed, "email", ["--limit", "2"])
    #expect(mail.contains(">6 unread</p>"))
    #expect(mail.contains(">4 older notifications</td>"))
  }
}
