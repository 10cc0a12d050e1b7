/// The default texts, built in with their plural forms for the languages below (CLDR
/// identifiers; a locale uses the first of its fallback chain found here).
///
/// English: "%u more notifications" (summary), "%u notifications" (hidden previews) and
/// "%u others" (the end of a list cut short by `--max-args`, English only: other languages
/// give it through `NOTIF_SUMMARY_OTHERS`).
public enum BuiltinTexts {
  /// A text's plural variants.
  public typealias Variants = [PluralCategory: String]

  /// The texts of one language.
  public struct Language: Sendable {
    /// "%u more notifications".
    public var summary: Variants
    /// "%u notifications".
    public var hidden: Variants
  }

  /// "%u others", in English.
  public static let others: Variants = [.one: "%u other", .other: "%u others"]

  /// The languages with built-in texts, by CLDR identifier.
  public static let languages: [String: Language] = [
    "en": Language(
      summary: [.one: "%u more notification", .other: "%u more notifications"],
      hidden: [.one: "%u notification", .other: "%u notifications"]),
    "ru": Language(
      summary: [
        .one: "ещё %u уведомление", .few: "ещё %u уведомления", .many: "ещё %u уведомлений",
        .other: "ещё %u уведомления",
      ],
      hidden: [
        .one: "%u уведомление", .few: "%u уведомления", .many: "%u уведомлений",
        .other: "%u уведомления",
      ]),
    "pl": Language(
      summary: [
        .one: "jeszcze %u powiadomienie", .few: "jeszcze %u powiadomienia",
        .many: "jeszcze %u powiadomień", .other: "jeszcze %u powiadomienia",
      ],
      hidden: [
        .one: "%u powiadomienie", .few: "%u powiadomienia", .many: "%u powiadomień",
        .other: "%u powiadomienia",
      ]),
    "ar": Language(
      summary: [
        .zero: "لا توجد إشعارات أخرى", .one: "إشعار واحد آخر", .two: "إشعاران آخران",
        .few: "%u إشعارات أخرى", .many: "%u إشعارًا آخر", .other: "%u إشعار آخر",
      ],
      hidden: [
        .zero: "لا توجد إشعارات", .one: "إشعار واحد", .two: "إشعاران", .few: "%u إشعارات",
        .many: "%u إشعارًا", .other: "%u إشعار",
      ]),
    "fr": Language(
      summary: [
        .one: "%u autre notification", .many: "%u autres notifications",
        .other: "%u autres notifications",
      ],
      hidden: [.one: "%u notification", .many: "%u notifications", .other: "%u notifications"]),
    "ja": Language(summary: [.other: "ほか%u件の通知"], hidden: [.other: "%u件の通知"]),
    "cy": Language(
      summary: [
        .zero: "dim hysbysiadau eraill", .one: "%u hysbysiad arall", .two: "%u hysbysiad arall",
        .few: "%u hysbysiad arall", .many: "%u hysbysiad arall", .other: "%u hysbysiad arall",
      ],
      hidden: [
        .zero: "dim hysbysiadau", .one: "%u hysbysiad", .two: "%u hysbysiad",
        .few: "%u hysbysiad", .many: "%u hysbysiad", .other: "%u hysbysiad",
      ]),
    "de": Language(
      summary: [.one: "%u weitere Mitteilung", .other: "%u weitere Mitteilungen"],
      hidden: [.one: "%u Mitteilung", .other: "%u Mitteilungen"]),
    "es": Language(
      summary: [
        .one: "%u notificación más", .many: "%u notificaciones más",
        .other: "%u notificaciones más",
      ],
      hidden: [.one: "%u notificación", .many: "%u notificaciones", .other: "%u notificaciones"]),
    "it": Language(
      summary: [
        .one: "%u altra notifica", .many: "%u altre notifiche", .other: "%u altre notifiche",
      ],
      hidden: [.one: "%u notifica", .many: "%u notifiche", .other: "%u notifiche"]),
    "pt": Language(
      summary: [
        .one: "mais %u notificação", .many: "mais %u notificações", .other: "mais %u notificações",
      ],
      hidden: [.one: "%u notificação", .many: "%u notificações", .other: "%u notificações"]),
    "nl": Language(
      summary: [.one: "nog %u melding", .other: "nog %u meldingen"],
      hidden: [.one: "%u melding", .other: "%u meldingen"]),
    "zh": Language(summary: [.other: "还有%u条通知"], hidden: [.other: "%u条通知"]),
    "zh_Hant": Language(summary: [.other: "還有%u則通知"], hidden: [.other: "%u則通知"]),
    "ko": Language(summary: [.other: "그 외 알림 %u개"], hidden: [.other: "알림 %u개"]),
  ]
}
