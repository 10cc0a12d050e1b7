import NotifCategories
import NotifModel
import Testing

@Suite struct SummaryFormatTests {
  @Test func cutsAFormatIntoPieces() throws {
    #expect(
      try SummaryFormat("100%% of %1$lu from %2$@, %#@n@", variables: ["n"]).pieces == [
        .literal("100% of "), .count, .literal(" from "), .arguments, .literal(", "),
        .plural(name: "n"),
      ])
  }

  @Test(arguments: [
    ("%s more", "unsupported directive '%s' in '%s more': use %u, %d, %lu, %@, %1$u, %2$@ or %%"),
    ("%#@n@", "'%#@n@' names a plural variable 'n' that is not defined"),
    ("%5u", "unsupported directive '%5u' in '%5u': widths and precisions are not supported"),
  ])
  func refusesOtherDirectives(_ format: String, _ message: String) {
    #expect(throws: SummaryFormat.DirectiveError(message: message)) {
      _ = try SummaryFormat(format)
    }
  }
}
