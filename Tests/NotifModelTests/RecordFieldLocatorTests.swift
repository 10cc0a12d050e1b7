import NotifJSON
import NotifModel
import Testing

@Suite struct RecordFieldLocatorTests {
  /// What the locator finds in `text`: whether the keys were in order, and each field's value
  /// as its raw JSON. For the outermost object, expects the same from a parser that expects the
  /// record's keys and a locator given the values' places it wrote down (`known`), as
  /// `RecordLineParser` reads.
  private func locate(_ text: String, object: Int = 0) -> (
    inOrder: Bool, values: [RecordField: String]
  ) {
    let plain = locate(text, object: object, expecting: false)
    if object == 0 {
      let expecting = locate(text, object: object, expecting: true)
      #expect(expecting.inOrder == plain.inOrder, "\(text)")
      #expect(expecting.values == plain.values, "\(text)")
    }
    return plain
  }

  private func locate(_ text: String, object: Int, expecting: Bool) -> (
    inOrder: Bool, values: [RecordField: String]
  ) {
    let bytes = Array(text.utf8)
    var parser = JSONParser()
    if expecting { parser.expectRootKeys(RecordFieldLocator.keys) }
    let locator = RecordFieldLocator()
    return bytes.withUnsafeBytes { raw in
      guard case .complete = parser.parse(raw, isFinal: true) else {
        Issue.record("not JSON: \(text)")
        return (false, [:])
      }
      let known = parser.expectedKeyValues
      #expect(known.prefix.count == parser.expectedKeysSeen)
      #expect((known.all != nil) == parser.expectedKeysComplete)
      return parser.withView(over: raw) { view in
        let inOrder = locator.locate(view, object: object, known: known)
        var values: [RecordField: String] = [:]
        for field in RecordField.allCases {
          if let index = locator.index(field) {
            values[field] = String(decoding: view.raw(index), as: UTF8.self)
          }
        }
        return (inOrder, values)
      }
    }
  }

  /// A record with every written key, in order, each value its field's number.
  private var recordInOrder: String {
    "{"
      + RecordField.written.map { "\"\($0.key)\":\($0.rawValue)" }.joined(separator: ",") + "}"
  }

  @Test func keysInRecordOrderAreFoundInOrder() {
    let (inOrder, values) = locate(recordInOrder)
    #expect(inOrder)
    #expect(values.count == RecordField.written.count)
    for field in RecordField.written {
      #expect(values[field] == "\(field.rawValue)", "\(field)")
    }
    #expect(values[.digestedAt] == nil)
  }

  /// A record that leaves out fields, anywhere (its first ones too), has every key matched by
  /// the parser expecting the record's keys (`expectedKeysComplete`), and every field found
  /// where the locator finds it with no help; a key out of order, repeated or spelled with an
  /// escape is not, and the locator then looks.
  @Test func aRecordWithFieldsLeftOutIsMatchedByTheParser() {
    let fields = RecordField.written
    for start in 0..<3 {
      let kept = fields.enumerated().filter { $0.offset % 3 == start }.map(\.element)
      let text = "{" + kept.map { "\"\($0.key)\":\($0.rawValue)" }.joined(separator: ",") + "}"
      #expect(parsesComplete(text), "\(text)")
      let (inOrder, values) = locate(text)
      #expect(inOrder)
      #expect(values.count == kept.count)
      for field in kept { #expect(values[field] == "\(field.rawValue)", "\(field)") }
    }
    let id = #""id":"a""#
    let title = #""title":"t""#
    for text in ["{\(title),\(id)}", #"{"id":"a","ti\u0074le":"t"}"#, #"{"id":"a","x":1}"#] {
      #expect(!parsesComplete(text), "\(text)")
      _ = locate(text)
    }
    // One member, a later field than the first: matched too.
    #expect(parsesComplete("{\(title)}"))
    // A repeated key is no record: the parse fails.
    #expect(!parsesComplete("{\(id),\(title),\(title)}"))
    #expect(parsesComplete("{\(id),\(title)}"))
  }

  /// Whether a parser expecting the record's keys matched every member of `text`.
  private func parsesComplete(_ text: String) -> Bool {
    var parser = JSONParser()
    parser.expectRootKeys(RecordFieldLocator.keys)
    return Array(text.utf8).withUnsafeBytes { raw in
      guard case .complete = parser.parse(raw, isFinal: true) else { return false }
      return parser.expectedKeysComplete
    }
  }

  /// Values of many tokens (arrays and objects, nested) before, between and after the members
  /// read by their expected keys: each value's place is where the tape walk finds it, and the
  /// walk goes on right after the last known member.
  @Test func valuesOfManyTokensAreFoundWhereverTheyStand() {
    let shapes = ["[]", "{}", #"[1,{"a":[2,{"b":null}]},"x"]"#, #"{"id":{"id":1},"app":[3]}"#]
    for (n, shape) in shapes.enumerated() {
      let members = RecordField.written.enumerated().map { i, field in
        "\"\(field.key)\":" + (i % 3 == n % 3 ? shape : "\(field.rawValue)")
      }
      let (inOrder, values) = locate("{" + members.joined(separator: ",") + "}")
      #expect(inOrder, "\(shape)")
      for (i, field) in RecordField.written.enumerated() {
        #expect(values[field] == (i % 3 == n % 3 ? shape : "\(field.rawValue)"), "\(field)")
      }
      // Known members, then one out of place: the rest are found by name after the last known.
      let cut = members.count / 2
      let swapped = members[..<cut] + [#""zzz":[[]]"#] + members[cut...].reversed()
      let (swappedInOrder, found) = locate("{" + swapped.joined(separator: ",") + "}")
      #expect(!swappedInOrder)
      #expect(found == values, "\(shape)")
    }
  }

  @Test func keysOutOfOrderEscapedOrUnknownAreFoundByName() {
    let (inOrder, values) = locate(
      #"{"zzz":1,"created_at":"t","\u0061pp":"a","id":"x","read_at":null,"leading":{}}"#)
    #expect(!inOrder)
    #expect(values[.createdAt] == #""t""#)
    #expect(values[.app] == #""a""#)
    #expect(values[.id] == #""x""#)
    #expect(values[.readAt] == "null")
    #expect(values.count == 4)
  }

  /// A record leaves its null fields out: its keys are still in order, each a later field.
  @Test func aRecordThatLeavesFieldsOutIsInOrder() {
    // `thread_id` left out: `category` is then in the third member, not its own place.
    let (inOrder, values) = locate(#"{"id":"x","app":"a","category":"c"}"#)
    #expect(inOrder)
    #expect(values == [.id: #""x""#, .app: #""a""#, .category: #""c""#])
    let sparse = locate(
      #"{"id":"x","created_at":"t","source":"apns","payload":{},"digested_at":1}"#)
    #expect(sparse.inOrder)
    #expect(sparse.values.count == 5)
    #expect(sparse.values[.digestedAt] == "1")
  }

  /// A key that comes back to an earlier field is out of order: found by name, and the object
  /// is checked for repeated keys as any other.
  @Test(arguments: [#"{"id":"x","title":"t","app":"a"}"#, #"{"app":"a","id":"x"}"#])
  func aKeyBackInTheOrderIsNotInOrder(_ text: String) {
    let (inOrder, values) = locate(text)
    #expect(!inOrder)
    #expect(values[.id] == #""x""#)
  }

  @Test func aNestedObjectIsLocatedAndANonObjectFindsNothing() {
    // Tape: 0 root, 1 key "r", 2 the nested object, 3 key "app", 4 its value, 5 key "n", 6 [1].
    let text = #"{"r":{"app":"b"},"n":[1]}"#
    #expect(locate(text, object: 2).values == [.app: #""b""#])
    let (inOrder, values) = locate(text, object: 6)
    #expect(!inOrder)
    #expect(values.isEmpty)
  }

  /// Each written key in its place, with one byte changed at each position in turn: never the
  /// field; and short keys at the very end of the text, where no whole word can be read.
  @Test func aKeyInItsPlaceMatchesOnlyByEveryByte() {
    for field in RecordField.written {
      let key = Array(field.key.utf8)
      for position in key.indices {
        var changed = key
        changed[position] ^= 0x01
        let members = RecordField.written.map { other -> String in
          let name = other == field ? String(decoding: changed, as: UTF8.self) : other.key
          return "\"\(name)\":\(other.rawValue)"
        }
        let (inOrder, values) = locate("{" + members.joined(separator: ",") + "}")
        #expect(!inOrder, "\(field) changed at \(position)")
        #expect(values[field] == nil, "\(field) changed at \(position)")
        #expect(values.count == RecordField.written.count - 1)
      }
    }
    #expect(locate(#"{"id":1}"#) == (true, [.id: "1"]))
    #expect(locate(#"{"id":1,"app":2}"#).values == [.id: "1", .app: "2"])
    #expect(locate(#"{"ie":1}"#).values.isEmpty)
  }

  @Test func aLaterObjectForgetsTheFieldsOfAnEarlierOne() {
    let bytes = Array(#"[{"id":"x"},{"app":"a"}]"#.utf8)
    var parser = JSONParser()
    let locator = RecordFieldLocator()
    bytes.withUnsafeBytes { raw in
      guard case .complete = parser.parse(raw, isFinal: true) else { return }
      parser.withView(over: raw) { view in
        locator.locate(view, object: 1)
        #expect(locator.index(.id) != nil)
        locator.locate(view, object: 4)
        #expect(locator.index(.id) == nil)
        #expect(locator.index(.app) != nil)
      }
    }
  }
}
