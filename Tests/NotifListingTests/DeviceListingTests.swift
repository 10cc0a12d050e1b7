import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import NotifListing

@Suite struct DeviceListingTests {
  /// What the rule says of the record `text`: "listed", the note's label, or the problem.
  static func verdict(_ text: String) -> String {
    let read = withView(of: text) { view -> String in
      do throws(RecordProblem) {
        return try DeviceListing.unlisted(view, record: 0, locator: RecordFieldLocator())?
          .label ?? "listed"
      } catch {
        return "\(error.code): \(error.message)"
      }
    }
    return read ?? "not JSON"
  }

  /// The table of notif(5), "What the device lists", row by row.
  @Test(arguments: [
    // Alerts with text, whatever else they carry: listed.
    (#"{"push_type":"alert","title":"Ana"}"#, "listed"),
    (#"{"push_type":null,"body":"Lunch?"}"#, "listed"),
    (#"{"body":""}"#, "listed"),  // an empty body is still an alert's text
    (#"{"loc_key":"NEW_MESSAGE"}"#, "listed"),
    (#"{"title_loc_key":"T"}"#, "listed"),
    (#"{"subtitle_loc_key":"S"}"#, "listed"),
    (#"{"subtitle":"S","content_available":true}"#, "listed"),
    (#"{"push_type":"alert","title":"Ana","source":"fcm"}"#, "listed"),
    (#"{"push_type":"Alert","title":"Ana"}"#, "listed"),  // not a type Apple defines: as alert
    (#"{"source":"webpush","title":"Sale"}"#, "listed"),
    // Push types for something else, text or not.
    (#"{"push_type":"background","content_available":true}"#, "background"),
    (#"{"push_type":"background","title":"Ana"}"#, "background"),
    (#"{"push_type":"location"}"#, "location"),
    (#"{"push_type":"voip","body":"Call"}"#, "voip"),
    (#"{"push_type":"complication"}"#, "complication"),
    (#"{"push_type":"fileprovider"}"#, "fileprovider"),
    (#"{"push_type":"mdm"}"#, "mdm"),
    (#"{"push_type":"liveactivity","title":"Your order"}"#, "liveactivity"),
    (#"{"push_type":"pushtotalk"}"#, "pushtotalk"),
    (#"{"push_type":"widgets"}"#, "widgets"),
    (#"{"push_type":"controls"}"#, "controls"),
    // No text: what the record says it is.
    (#"{"push_type":null,"content_available":true}"#, "background"),
    (#"{"push_type":"alert","badge":3}"#, "no text"),
    (#"{"source":"fcm"}"#, "data-only"),
    (#"{"source":"fcm-legacy","title":null}"#, "data-only"),
    (#"{"source":"expo"}"#, "data-only"),
    (#"{"source":"expo","content_available":true}"#, "background"),
    (#"{"source":"apns","content_available":false}"#, "no text"),
    (#"{"source":"sns"}"#, "no text"),
    (#"{}"#, "no text"),
    // Wrong types are rejected, whatever would decide.
    (#"{"push_type":5,"title":"x"}"#, "BadType: 'push_type' is a number, not a string or null"),
    (
      #"{"content_available":1}"#, "BadType: 'content_available' is a number, not a boolean or null"
    ),
    (#"{"title":["x"]}"#, "BadType: 'title' is an array, not a string or null"),
    (#"{"source":{},"title":"x"}"#, "BadType: 'source' is an object, not a string or null"),
  ])
  func followsTheTableOfNotif5(_ text: String, _ expected: String) {
    #expect(Self.verdict(text) == expected, "\(text)")
  }

  @Test func aKeySpelledWithEscapesIsRead() {
    #expect(Self.verdict(#"{"push_\u0074ype":"widgets","title":"x"}"#) == "widgets")
    #expect(Self.verdict(#"{"push_type":"w\u0069dgets","title":"x"}"#) == "widgets")
  }

  @Test func aLongPushTypeIsNoneOfApples() {
    let long = String(repeating: "background", count: 1000)
    #expect(Self.verdict(#"{"push_type":""# + long + #"","title":"x"}"#) == "listed")
  }

  @Test func everyPushTypeButAlertHasACase() {
    let types = [
      "background", "location", "voip", "complication", "fileprovider", "mdm", "liveactivity",
      "pushtotalk", "widgets", "controls",
    ]
    #expect(types.map { Unlisted(pushType: $0.utf8)?.label } == types)
    // Only the whole type, as spelled: no prefix, no longer word, no other case.
    for other in ["alert", "", "backgroun", "backgroundx", "Background", "voipvoip", "data-only"] {
      #expect(Unlisted(pushType: other.utf8) == nil, "\(other)")
    }
  }
}

@Suite struct UnlistedTallyTests {
  @Test func aNoteSaysHowManyAndWhyMostFirst() throws {
    var tally = UnlistedTally()
    #expect(tally.note(file: "x") == nil)
    tally.add(.widgets, 2)
    tally.add(.background, 10)
    var other = UnlistedTally()
    other.add(.dataOnly)
    other.add(.noText)
    tally.add(other)
    let note = tally.note(file: "in.ndjson")
    #expect(note?.severity == .note)
    #expect(note?.code == "NotListed")
    #expect(note?.file == "in.ndjson" && note?.line == nil)
    #expect(
      note?.message
        == "14 records not listed: 10 background, 2 widgets, 1 data-only, 1 no text; "
        + "--all-pushes keeps them")
    #expect(
      DiagnosticFormat.text.render(try #require(note), program: "notif-group")
        == "notif-group: in.ndjson: note: 14 records not listed: 10 background, 2 widgets, "
        + "1 data-only, 1 no text; --all-pushes keeps them [NotListed]\n")
  }

  @Test func oneRecordIsSingular() {
    var tally = UnlistedTally()
    tally.add(.liveactivity)
    #expect(
      tally.note(file: "-")?.message == "1 record not listed: 1 liveactivity; --all-pushes keeps it"
    )
  }
}

@Suite struct GroupListingTests {
  @Test func aGroupListsNothingOnlyWhenEveryRecordIsThereAndNoneIsListed() {
    var one = GroupListing()
    one.add(.background)
    #expect(one.listsNothing(count: 1))
    #expect(!one.listsNothing(count: 2))  // a record not there may be listed
    var mixed = one
    mixed.add(nil)
    #expect(!mixed.listsNothing(count: 2))
    var two = one
    two.add(.widgets)
    #expect(two.listsNothing(count: 2))
    #expect(two.unlisted.total == 2)
  }
}
