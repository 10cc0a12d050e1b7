import Testing

@testable import NotifJSON

/// Bugs libFuzzer found (inputs kept in fuzz/regressions/), pinned as plain tests.
struct FuzzRegressionTests {
  /// A top-level literal that ends where the bytes end may still go on (`nullx`), so without
  /// the final bytes it is incomplete, exactly as a number is.
  @Test(arguments: ["null", "true", "false"])
  func topLevelLiteralAtTheEndWaitsForMoreInput(_ literal: String) {
    var parser = JSONParser()
    let bytes = Array(literal.utf8)
    bytes.withUnsafeBytes { raw in
      #expect(parser.parse(raw, isFinal: false) == .incomplete)
      #expect(parser.parse(raw, isFinal: true) == .complete(end: bytes.count))
    }
    // `nullx` could still grow into a longer word, which the message quotes: it waits too.
    Array((literal + "x").utf8).withUnsafeBytes { raw in
      #expect(parser.parse(raw, isFinal: false) == .incomplete)
    }
    let longer = Array((literal + "x,").utf8)
    longer.withUnsafeBytes { raw in
      guard case .failed(let error) = parser.parse(raw, isFinal: false) else {
        Issue.record("'\(literal)x' was not rejected")
        return
      }
      #expect(error.message.hasPrefix("unexpected word '\(literal)x'"))
    }
  }
}
