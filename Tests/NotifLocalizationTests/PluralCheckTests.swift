import Testing

@testable import NotifLocalization

/// What `PluralCheck` says of `format` (with `variables`) in `locale`: "safe", or the
/// categories missing with what each first number reads, and whether a plural variable is there.
private func check(
  _ format: String, variables: [String: [PluralCategory: String]] = [:], locale: String = "en"
) throws -> String {
  let localized = LocalizedFormat(
    try FormatTemplate(format, variables: variables), rules: try CLDRLocale(locale).plural)
  guard let gap = PluralCheck.gap(localized) else { return "safe" }
  let missing = gap.missing.map { "\($0.category.rawValue) \($0.count) '\($0.text)'" }
  return (gap.hasPluralVariable ? "variable: " : "none: ") + missing.joined(separator: ", ")
}

struct PluralCheckTests {
  @Test(arguments: [
    // Every directive of a count, positional and with a length, as written.
    ("%u messages", "none: one 1 '1 messages'"),
    ("%d messages", "none: one 1 '1 messages'"),
    ("%lu messages", "none: one 1 '1 messages'"),
    ("%1$u more messages from %2$@", "none: one 1 '1 more messages from …'"),
    ("%2$@ shared %1$lu photos", "none: one 1 '… shared 1 photos'"),
    // No count: nothing to check.
    ("New messages", "safe"),
    ("From %@", "safe"),
    ("100%% done", "safe"),
  ])
  func aCountWithoutAPluralVariableIsAGapInEnglish(_ format: String, _ expected: String) throws {
    #expect(try check(format) == expected)
  }

  @Test func aPluralVariableWithEveryCategoryIsSafe() throws {
    let messages: [PluralCategory: String] = [.one: "%u message", .other: "%u messages"]
    #expect(try check("%#@n@", variables: ["n": messages]) == "safe")
    #expect(try check("%1$#@n@ from %2$@", variables: ["n": messages]) == "safe")
    // The word in the variable, the count beside it.
    #expect(
      try check("%u %#@word@", variables: ["word": [.one: "message", .other: "messages"]])
        == "safe")
    // A variant that drops the number still has its category.
    #expect(
      try check("%#@n@", variables: ["n": [.one: "a message", .other: "%u messages"]]) == "safe")
  }

  @Test func aVariableWithoutACategoryOfTheLocaleIsAGap() throws {
    #expect(
      try check("%#@n@", variables: ["n": [.other: "%u messages"]])
        == "variable: one 1 '1 messages'")
    let russian: [PluralCategory: String] = [.one: "%u сообщение", .other: "%u сообщения"]
    #expect(
      try check("%#@n@", variables: ["n": russian], locale: "ru")
        == "variable: few 2 '2 сообщения', many 5 '5 сообщения'")
    #expect(
      try check("%u сообщений", locale: "ru")
        == "none: one 1 '1 сообщений', few 2 '2 сообщений', many 5 '5 сообщений'")
  }

  @Test(arguments: ["ja", "zh-Hans", "ko", "th"])
  func aLanguageWithOneFormNeedsNoVariable(_ locale: String) throws {
    #expect(try check("%u件のメッセージ", locale: locale) == "safe")
  }

  /// French's `many` is for a million and the like, no count of notifications: `one` and
  /// `other` are all it needs.
  @Test func frenchNeedsOneAndOther() throws {
    let french: [PluralCategory: String] = [.one: "%u message", .other: "%u messages"]
    #expect(try check("%#@n@", variables: ["n": french], locale: "fr") == "safe")
    #expect(try check("%u messages", locale: "fr") == "none: one 1 '1 messages'")
  }
}
