import NotifCLI
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import notif_show

/// Which payload URLs become the link a tap opens: https and http with a host, an app scheme
/// only where `--link-scheme` names it, and never a scheme that runs or forges content.
@Suite struct TapLinkTests {
  static let links = try! TapLink(schemes: ["myapp,Other-App.2"], key: "data.url")

  @Test(arguments: [
    "https://example.com/a", "HTTPS://example.com", "http://example.com:8080/x?y=1#z",
    "myapp://thread/1", "MYAPP:thread", "other-app.2://x",
  ])
  func links(_ url: String) {
    #expect(Self.links.isSafe(url))
  }

  @Test(arguments: [
    "javascript:alert(1)", "JaVaScRiPt:alert(1)", "java\tscript:alert(1)", "java\nscript:x",
    " https://example.com", "https://example.com/a b", "data:text/html,<script>", "vbscript:x",
    "https:", "https://", "https:/example.com", "https:example.com", "ftp://example.com",
    "file:///etc/passwd", "/relative/path", "example.com", "", "myapp:", "-x://y",
    "https://example.com/\u{85}", "https://example.com/\u{2028}", "ja\u{0}vascript:x",
  ])
  func refuses(_ url: String) {
    #expect(!Self.links.isSafe(url))
  }

  @Test func withoutLinkSchemeAnAppSchemeIsNoLink() {
    #expect(!TapLink().isSafe("myapp://thread/1"))
    #expect(TapLink().isSafe("https://example.com"))
  }

  @Test(arguments: ["javascript", "DATA", "vbscript", "myapp,javascript"])
  func aSchemeThatIsNeverALinkIsAUsageError(_ scheme: String) {
    #expect(throws: UsageError.self) { try TapLink(schemes: [scheme], key: nil) }
  }

  @Test(arguments: ["", "1app", "my app", "my_app", "app,"])
  func aNameThatIsNoSchemeIsAUsageError(_ scheme: String) {
    #expect(throws: UsageError.self) { try TapLink(schemes: [scheme], key: nil) }
  }

  @Test(arguments: ["", ".url", "data..url", "data."])
  func aKeyThatIsNoPathIsAUsageError(_ key: String) {
    #expect(throws: UsageError.self) { try TapLink(schemes: [], key: key) }
  }

  /// The vendor's own field comes first; `--link-key` serves a payload without one.
  @Test func theServicesFieldThenTheKey() throws {
    func link(_ source: String, _ payload: String) throws -> String? {
      let text = #"{"source":"\#(source)","payload":\#(payload)}"#
      let found = withView(of: text) { view -> String? in
        let payload = view.member(0, "payload") ?? -1
        let source = view.member(0, "source") ?? -1
        return Self.links.link(view, payload: payload, source: source)
      }
      return try #require(found, "not JSON: \(text)")
    }
    let fcm =
      #"{"message":{"webpush":{"fcm_options":{"link":"https://a.example"}}},"#
      + #""data":{"url":"https://b.example"}}"#
    #expect(try link("fcm", fcm) == "https://a.example")
    #expect(try link("apns", fcm) == "https://b.example")
    let declarative = #"{"web_push":8030,"notification":{"navigate":"https://c.example"}}"#
    #expect(try link("webpush", declarative) == "https://c.example")
    #expect(try link("fcm", declarative) == nil)
    #expect(try link("fcm", #"{"message":{"webpush":{"fcm_options":{"link":7}}}}"#) == nil)
    #expect(try link("expo", #"{"data":{"url":"javascript:x"}}"#) == nil)
    #expect(try link("expo", #"{"data":"https://x.example"}"#) == nil)
  }
}
