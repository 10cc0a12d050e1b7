import TestSupport
import Testing

@testable import NotifJSON

@Suite struct JSONWriterTests {
  static let canonical: [(String, String)] = [
    (#"{ "a" : 1 , "b" : [ true , false , null ] }"#, #"{"a":1,"b":[true,false,null]}"#),
    (#""\/""#, #""/""#),
    (#""\u00e9""#, #""é""#),
    (#""\u00E9""#, #""é""#),
    (#""\ud83d\ude00""#, #""😀""#),
    (#""\u2603 \u20AC""#, "\"\u{2603} \u{20AC}\""),
    (#""a\u000ab""#, #""a\nb""#),
    (#""\u0009""#, #""\t""#),
    (#""\u000D\u0008\u000C""#, #""\r\b\f""#),
    (#""\b\f\r\n\t""#, #""\b\f\r\n\t""#),
    (#""\u0001""#, #""\u0001""#),
    (#""\u001F""#, #""\u001f""#),
    (#""\u0000""#, #""\u0000""#),
    (#""\u0022\u005c""#, #""\"\\""#),
    (#""\"\\""#, #""\"\\""#),
    (#""\u007f""#, "\"\u{7F}\""),
    (#""\u2028""#, "\"\u{2028}\""),
    (#""\u0041BC""#, #""ABC""#),
    (#"{"\u0061":1}"#, #"{"a":1}"#),
    (#"{"b":1,"a":2}"#, #"{"b":1,"a":2}"#),
    ("{ }", "{}"),
    ("[ ]", "[]"),
    ("[ [ ] , { } ]", "[[],{}]"),
    (
      "[1.0, 1e5, 1E+5, 12345678901234567890, -0, 0.5e-3, 100]",
      "[1.0,1e5,1E+5,12345678901234567890,-0,0.5e-3,100]"
    ),
    ("{\n  \"aps\" : {\n    \"alert\" : \"Hi\"\n  }\n}", #"{"aps":{"alert":"Hi"}}"#),
  ]

  @Test(arguments: canonical)
  func writesCanonicalCompactForm(_ input: String, _ output: String) {
    #expect(compact(input) == output)
  }

  @Test(arguments: canonical.map(\.0))
  func writingIsIdempotent(_ input: String) throws {
    let once = try #require(compact(input))
    #expect(compact(once) == once)
  }

  @Test func textsThatDifferOnlyInSpaceAndEscapesComeOutTheSame() {
    let forms = [
      #"{"title":"Café","n":[1,2]}"#,
      #"{ "title" : "Caf\u00e9" , "n" : [ 1 , 2 ] }"#,
      "{\n\t\"t\\u0069tle\": \"Caf\\u00E9\",\n\t\"n\": [1,\n2]\n}",
    ]
    let outputs = Set(forms.map { compact($0) ?? "invalid" })
    #expect(outputs == [#"{"title":"Café","n":[1,2]}"#])
  }

  @Test func writesAMemberValueOnItsOwn() {
    let inner = withView(of: #"{"a": {"b" : [1, "\u0041"]}, "c": 2}"#) { view -> String in
      var out = ByteBuffer()
      if let a = view.member(0, "a") { JSONWriter.writeCompact(view, a, into: &out) }
      return out.text
    }
    #expect(inner == #"{"b":[1,"A"]}"#)
  }

  // MARK: - JSONEscapes

  @Test(arguments: [
    ("plain", #""plain""#),
    ("quote \" and \\ backslash", #""quote \" and \\ backslash""#),
    ("line\nbreak\ttab\rcr\u{8}\u{C}", #""line\nbreak\ttab\rcr\b\f""#),
    ("\u{0}\u{1}\u{1F}\u{7F}", "\"\\u0000\\u0001\\u001f\u{7F}\""),
    ("é😀 /", "\"é😀 /\""),
    ("", #""""#),
  ])
  func writesStringsEscapingOnlyWhatJSONRequires(_ text: String, _ json: String) {
    var out = ByteBuffer()
    JSONEscapes.writeString(text, into: &out)
    #expect(out.text == json)
    #expect(withView(of: out.text) { $0.string(0) } == text)
  }

  @Test func unescapesRawStringContents() {
    let raw = Array(#"a\"\\\/\n\u00e9\ud83d\ude00z"#.utf8)
    var out = ByteBuffer()
    raw.withUnsafeBytes { JSONEscapes.unescape($0, into: &out) }
    #expect(out.text == "a\"\\/\né😀z")
  }
}

/// `JSONView.stringPrefix`: the start of a long string, read from its first bytes only, cut
/// where no escape or UTF-8 sequence is cut in two.
@Suite struct StringPrefixTests {
  /// The prefix of the string `raw` (its bytes between the quotes) read from `maxBytes` bytes.
  static func prefix(_ raw: String, _ maxBytes: Int) -> (text: String, isWhole: Bool) {
    let bytes = Array(("\"" + raw + "\"").utf8)
    var parser = JSONParser()
    return bytes.withUnsafeBytes { buffer in
      guard case .complete = parser.parse(buffer, isFinal: true) else { return ("?", false) }
      return parser.withView(over: buffer) { $0.stringPrefix(0, maxBytes: maxBytes) }
    }
  }

  @Test(arguments: [
    // raw string, bytes read, the text read
    (#"abc\u00e9\n"#, 100, "abcé\n"), (#"abc\u00e9\n"#, 8, "abc"), (#"abc\u00e9\n"#, 9, "abcé"),
    (#"ab\uD83D\uDE00c"#, 13, "ab"), (#"ab\uD83D\uDE00c"#, 14, "ab😀"), (#"\\\\\\"#, 3, "\\"),
    ("aé😀", 3, "aé"), ("aé😀", 6, "aé"), ("aé😀", 7, "aé😀"), ("😀", 2, ""),
  ])
  func cutsBetweenEscapesAndSequences(_ raw: String, _ maxBytes: Int, _ text: String) {
    let read = Self.prefix(raw, maxBytes)
    #expect(read.text == text)
    #expect(read.isWhole == (maxBytes >= raw.utf8.count))
  }
}
