import Foundation
import TestSupport
import Testing

@testable import NotifLocalization

/// The fixture `scripts/gen-cldr.py` writes: Babel's own plural category for every locale and
/// a set of integers and decimals.
private struct PluralSamples: Decodable {
  var babel: String
  var cldr: String
  var numbers: [String]
  var locales: [String: String]

  static let loaded: PluralSamples? = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/cldr-plural-samples.json")
    guard let data = try? Data(contentsOf: url) else { return nil }
    return try? JSONDecoder().decode(PluralSamples.self, from: data)
  }()
}

private let letters: [Character: PluralCategory] = [
  "z": .zero, "o": .one, "t": .two, "f": .few, "m": .many, "x": .other,
]

struct PluralRulesTests {
  @Test func fixtureMatchesTheEmbeddedData() throws {
    let samples = try #require(PluralSamples.loaded)
    #expect(samples.cldr == CLDRData.version)
    #expect(samples.babel == CLDRData.babelVersion)
    #expect(samples.locales.count > 1000)
    for identifier in samples.locales.keys {
      #expect(CLDRLocale.isDefined(identifier), "\(identifier)")
    }
  }

  @Test(.slow) func everyLocaleAgreesWithBabelOnEverySample() throws {
    let samples = try #require(PluralSamples.loaded)
    let operands = try samples.numbers.map { try #require(PluralOperands(decimal: $0)) }
    var checked = 0
    for (identifier, expected) in samples.locales.sorted(by: { $0.key < $1.key }) {
      let locale = try CLDRLocale(identifier)
      #expect(locale.identifier == identifier)
      let wanted = expected.map { letters[$0] }
      #expect(wanted.count == operands.count)
      for (number, (x, category)) in zip(samples.numbers, zip(operands, wanted)) {
        let got = locale.plural.category(x)
        if got != category {
          Issue.record(
            "\(identifier) \(number): \(got), Babel says \(String(describing: category))")
        }
        checked += 1
      }
    }
    #expect(checked > 250_000)
  }

  @Test(arguments: [
    ("1", PluralOperands(i: 1, v: 0, w: 0, f: 0, t: 0)),
    ("1.0", PluralOperands(i: 1, v: 1, w: 0, f: 0, t: 0)),
    ("1.50", PluralOperands(i: 1, v: 2, w: 1, f: 50, t: 5)),
    ("2.10", PluralOperands(i: 2, v: 2, w: 1, f: 10, t: 1)),
    ("0.01", PluralOperands(i: 0, v: 2, w: 2, f: 1, t: 1)),
    ("-3.000", PluralOperands(i: 3, v: 3, w: 0, f: 0, t: 0)),
  ])
  func decimalOperandsKeepVisibleFractionDigits(text: String, expected: PluralOperands) {
    #expect(PluralOperands(decimal: text) == expected)
  }

  @Test(arguments: ["", "1.", ".5", "1.2.3", "1e3", "x", "--1"])
  func malformedDecimalsHaveNoOperands(text: String) {
    #expect(PluralOperands(decimal: text) == nil)
  }

  @Test(arguments: [
    (
      "ru",
      [1: "one", 2: "few", 5: "many", 11: "many", 21: "one", 22: "few", 25: "many", 111: "many"]
    ),
    ("pl", [1: "one", 2: "few", 5: "many", 12: "many", 22: "few", 25: "many", 0: "many"]),
    (
      "ar",
      [
        0: "zero", 1: "one", 2: "two", 3: "few", 10: "few", 11: "many", 99: "many", 100: "other",
        102: "other", 103: "few",
      ]
    ),
    ("cy", [0: "zero", 1: "one", 2: "two", 3: "few", 6: "many", 4: "other", 7: "other"]),
    ("fr", [0: "one", 1: "one", 2: "other", 1_000_000: "many"]),
    ("ja", [0: "other", 1: "other", 2: "other"]),
    ("en", [0: "other", 1: "one", 2: "other"]),
  ])
  func integersFallInTheirCategories(locale: String, expected: [Int: String]) throws {
    let rules = try CLDRLocale(locale).plural
    for (number, category) in expected {
      #expect(rules.category(number).rawValue == category, "\(locale) \(number)")
    }
  }

  @Test(arguments: [
    ("one: n = 1 and", "expected an operand after 'and' in ' n = 1 and'"),
    ("one: x = 1", "expected an operand in ' x = 1'"),
    ("one: n % 0 = 1", "expected a modulus in ' n % 0 = 1'"),
    ("one: n is 1", "expected '=' or '!=' and values in ' n is 1'"),
    ("one: n = 3..1", "bad value '3..1' in ' n = 3..1'"),
    ("one: n = 1 xor n = 2", "expected 'and' or 'or' in ' n = 1 xor n = 2', found 'xor'"),
    ("uno: n = 1", "bad plural rule 'uno: n = 1'"),
  ])
  func malformedRulesAreRejected(text: String, message: String) {
    #expect(throws: PluralRules.SyntaxError(message: message)) { try PluralRules(text) }
  }
}
