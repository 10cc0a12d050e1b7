import NotifJSON
import NotifModel

/// Recognizes the push formats of other services by their keys, to say what a text with no
/// `aps` probably is. notif-parse reads APNs only; naming the format beats "no aps".
enum ForeignFormat {
  static let snsPlatforms: Set<String> = [
    "default", "APNS", "APNS_SANDBOX", "APNS_VOIP", "APNS_VOIP_SANDBOX", "MACOS", "MACOS_SANDBOX",
    "GCM", "FCM", "ADM", "BAIDU", "MPNS", "WNS",
  ]

  /// A phrase such as "an FCM HTTP v1 message", or nil if the shape is not recognized.
  static func guess(_ view: JSONView, _ root: Int) -> String? {
    if let message = view.member(root, "message"), view.kind(message) == .object {
      if let apns = view.member(message, "apns"), let payload = view.member(apns, "payload"),
        view.member(payload, "aps") != nil
      {
        return "an FCM HTTP v1 message (its APNs payload is in message.apns.payload)"
      }
      return "an FCM HTTP v1 message"
    }
    if let webPush = view.member(root, "web_push"), view.integer(webPush) == 8030 {
      return "a Declarative Web Push message"
    }
    if let notification = view.member(root, "notification"), view.kind(notification) == .object {
      if view.member(root, "to") != nil || view.member(root, "registration_ids") != nil {
        return "an FCM legacy HTTP message"
      }
      if view.member(notification, "navigate") != nil {
        return "a Web Push notification"
      }
      return "an FCM or Web Push message"
    }
    if view.member(root, "to") != nil || view.member(root, "registration_ids") != nil
      || view.member(root, "content_available") != nil
      || (view.member(root, "data") != nil && view.tokens[root].count <= 3)
    {
      return "an FCM legacy message"
    }
    var allPlatforms = view.tokens[root].count > 0
    view.forEachMember(of: root) { key, _ in
      if !snsPlatforms.contains(view.string(key)) { allPlatforms = false }
    }
    if allPlatforms {
      return "an Amazon SNS message (the APNs payload is the string under APNS)"
    }
    if view.member(root, "title") != nil && view.member(root, "options") != nil {
      return "a Web Push notification (title and options)"
    }
    return nil
  }
}
