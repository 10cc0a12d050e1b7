import NotifCLI
import NotifModel
import NotifSweep
import Testing

/// `--wait SECONDS` (`SweepOptions.parseWait`): unsigned seconds from 0 to a day. A sign is
/// refused as every number option refuses it; on `-0` and `+5`, which name seconds in range,
/// the message says that the sign is what is wrong.
@Suite struct WaitOptionTests {
  @Test(arguments: [("0", 0.0), ("0.5", 0.5), ("2", 2), ("86400", 86_400), ("00", 0)])
  func readsUnsignedSeconds(_ text: String, _ seconds: Double) throws {
    #expect(try SweepOptions.parseWait(text, store: "s") == seconds)
    #expect(try SweepOptions.parseWait(nil, store: nil) == 0)
  }

  @Test(arguments: [
    ("-0", "--wait: '-0' has a sign: write '0', without one"),
    ("-0.0", "--wait: '-0.0' has a sign: write '0.0', without one"),
    ("+5", "--wait: '+5' has a sign: write '5', without one"),
    ("-1", "--wait: '-1' is not a number of seconds from 0 to 86400"),
    ("-86401", "--wait: '-86401' is not a number of seconds from 0 to 86400"),
    ("+86401", "--wait: '+86401' is not a number of seconds from 0 to 86400"),
    ("--0", "--wait: '--0' is not a number of seconds from 0 to 86400"),
    ("-", "--wait: '-' is not a number of seconds from 0 to 86400"),
    ("", "--wait: '' is not a number of seconds from 0 to 86400"),
    ("1e3", "--wait: '1e3' is not a number of seconds from 0 to 86400"),
  ])
  func refusesSignsAndNumbersOutOfRange(_ text: String, _ message: String) {
    #expect(throws: UsageError(message)) { _ = try SweepOptions.parseWait(text, store: "s") }
  }
}
