import Testing

@testable import NotifLocalization

private let english = FormatBook.english.plural

private func render(
  _ format: String, _ count: Int, _ arguments: String = "",
  variables: [String: [PluralCategory: String]] = [:], locale: String = "en"
) throws -> String {
  let template = try FormatTemplate(format, variables: variables)
  return template.render(count: count, arguments: arguments, rules: try CLDRLocale(locale).plural)
}

struct FormatTemplateTests {
  @Test(arguments: [
    ("%u more messages", 5, "", "5 more messages"),
    ("%d more messages", 5, "", "5 more messages"),
    ("%i more", 5, "", "5 more"),
    ("%lu more", 5, "", "5 more"),
    ("%ld more", 5, "", "5 more"),
    ("%llu more", 5, "", "5 more"),
    ("%lld more", 5, "", "5 more"),
    ("%qu more", 5, "", "5 more"),
    ("%zu more", 5, "", "5 more"),
    ("%u more messages from %@", 5, "Alice and Bob", "5 more messages from Alice and Bob"),
    ("%1$u more messages from %2$@", 5, "Alice", "5 more messages from Alice"),
    ("%2$@ sent %1$u messages", 3, "Alice", "Alice sent 3 messages"),
    ("%1$lu (%1$u)", 3, "", "3 (3)"),
    ("%@: %u", 2, "Bob", "Bob: 2"),
    ("100%% done, %u left", 4, "", "100% done, 4 left"),
    ("no directive", 4, "", "no directive"),
    ("", 4, "", ""),
  ])
  func directivesTakeTheCountOrTheList(
    format: String, count: Int, arguments: String, expected: String
  )
    throws
  {
    #expect(try render(format, count, arguments) == expected)
  }

  @Test(arguments: ["%u% from %@", "%@ and %2$@", "50%% of %1$@", "%d%%", "{0} %{1}"])
  func argumentsAreInsertedLiterally(arguments: String) throws {
    #expect(try render("%u more from %@", 2, arguments) == "2 more from \(arguments)")
  }

  @Test(arguments: [
    ("%s more", "unsupported directive '%s' in '%s more': use %u, %d, %lu, %@, %1$u, %2$@ or %%"),
    ("%x", "unsupported directive '%x' in '%x': use %u, %d, %lu, %@, %1$u, %2$@ or %%"),
    ("%lx", "unsupported directive '%lx' in '%lx': use %u, %d, %lu, %@, %1$u, %2$@ or %%"),
    ("%l@", "unsupported directive '%l@' in '%l@': use %u, %d, %lu, %@, %1$u, %2$@ or %%"),
    ("%5u", "unsupported directive '%5u' in '%5u': widths and precisions are not supported"),
    ("%u more %", "'%' at the end of '%u more %' is not a directive"),
    ("%2$u", "'%2$u' takes argument 2: the count is argument 1 (%1$u), the list argument 2 (%2$@)"),
    ("%1$@", "'%1$@' takes argument 1: the count is argument 1 (%1$u), the list argument 2 (%2$@)"),
    ("%3$@", "'%3$@' takes argument 3: the count is argument 1 (%1$u), the list argument 2 (%2$@)"),
    ("%#@files@", "'%#@files@' names a plural variable 'files' that is not defined"),
    ("%#x", "unsupported directive '%#' in '%#x'"),
  ])
  func otherDirectivesAreErrors(format: String, message: String) {
    #expect(throws: FormatTemplate.FormatError(message: message)) { try FormatTemplate(format) }
  }

  @Test func pluralVariablesChooseByTheCount() throws {
    let variables: [String: [PluralCategory: String]] = [
      "n": [
        .one: "%u сообщение", .few: "%u сообщения", .many: "%u сообщений", .other: "%u сообщения",
      ]
    ]
    let expected = [
      1: "1 сообщение", 2: "2 сообщения", 5: "5 сообщений", 21: "21 сообщение",
      22: "22 сообщения", 25: "25 сообщений", 111: "111 сообщений",
    ]
    for (count, text) in expected {
      #expect(try render("%#@n@", count, variables: variables, locale: "ru") == text)
    }
  }

  @Test func aZeroVariantWinsForZeroInEveryLanguage() throws {
    let variables: [String: [PluralCategory: String]] = [
      "n": [.zero: "none", .one: "%u one", .other: "%u other"]
    ]
    #expect(try render("%#@n@", 0, variables: variables, locale: "en") == "none")
    #expect(try render("%#@n@", 0, variables: variables, locale: "ja") == "none")
    #expect(try render("%#@n@", 1, variables: variables, locale: "ja") == "1 other")
    #expect(
      try render("%#@n@", 0, variables: ["n": [.one: "%u one", .other: "%u other"]]) == "0 other")
  }

  @Test func aMissingVariantFallsBackToOther() throws {
    let variables: [String: [PluralCategory: String]] = ["n": [.other: "%u x"]]
    #expect(try render("%#@n@", 1, variables: variables, locale: "ar") == "1 x")
  }

  @Test func variantsMayShowTheList() throws {
    let variables: [String: [PluralCategory: String]] = [
      "n": [.one: "%u more message", .other: "%u more messages"]
    ]
    let template = try FormatTemplate("%1$#@n@ from %2$@", variables: variables)
    #expect(template.usesArguments)
    #expect(
      template.render(count: 1, arguments: "Bob", rules: english) == "1 more message from Bob")
    let inside = try FormatTemplate("%#@n@", variables: ["n": [.other: "%u from %@"]])
    #expect(inside.usesArguments)
    #expect(try !FormatTemplate("%u more").usesArguments)
  }

  @Test func aPluralVariableTakesTheCount() {
    #expect(
      throws: FormatTemplate.FormatError(
        message: "'%2$#@n@' takes argument 2: the count is argument 1, the list argument 2")
    ) {
      try FormatTemplate("%2$#@n@", variables: ["n": [.other: "x"]])
    }
  }
}
