import TestSupport
import Testing

@testable import NotifJSON

/// A text the parser must reject, with the exact error.
struct Rejection: Sendable, CustomTestStringConvertible {
  var bytes: [UInt8]
  var error: JSONError

  init(_ text: String, at offset: Int, _ message: String, _ code: JSONError.Code = .invalidJSON) {
    bytes = Array(text.utf8)
    error = JSONError(code, at: offset, message)
  }

  init(bytes: [UInt8], at offset: Int, _ message: String, _ code: JSONError.Code = .invalidJSON) {
    self.bytes = bytes
    error = JSONError(code, at: offset, message)
  }

  var testDescription: String {
    String(decoding: bytes, as: UTF8.self).debugDescription
  }
}

private let word = " (only true, false and null go unquoted; strings need double quotes)"

@Suite struct JSONParserTests {
  // MARK: - Valid texts

  static let validTexts: [(String, String)] = [
    ("{}", "{}"),
    ("[]", "[]"),
    (#"{"a":1}"#, #"{"a":1}"#),
    (#" { "a" : [ 1 , 2 ] , "b" : { } } "#, #"{"a":[1,2],"b":{}}"#),
    ("[\n\t1,\r\n2\n]", "[1,2]"),
    (#""text""#, #""text""#),
    ("42", "42"),
    ("true", "true"),
    ("false", "false"),
    ("null", "null"),
    (#"[true,false,null]"#, #"[true,false,null]"#),
    (#"{"a":{"b":{"c":[[],[{}]]}}}"#, #"{"a":{"b":{"c":[[],[{}]]}}}"#),
    (#"{"a":1,"A":2}"#, #"{"a":1,"A":2}"#),
    (#"{"a":{"a":1}}"#, #"{"a":{"a":1}}"#),
    (#"[{"a":1},{"a":2}]"#, #"[{"a":1},{"a":2}]"#),
    ("\"\u{7F}\"", "\"\u{7F}\""),
    (
      "\"\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}\u{10000}\u{10FFFF}\"",
      "\"\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}\u{10000}\u{10FFFF}\""
    ),
    ("\"\u{2028}\u{2029}\"", "\"\u{2028}\u{2029}\""),
  ]

  @Test(arguments: validTexts)
  func acceptsValidTexts(_ text: String, _ canonical: String) {
    let parsed = parse(text)
    #expect(parsed.result == .complete(end: text.utf8.count - (text.hasSuffix(" ") ? 1 : 0)))
    #expect(parsed.compact == canonical)
  }

  @Test(arguments: [
    "0", "-0", "1e5", "1E+5", "1.5e-3", "-0.0", "0e0", "1E-0", "-1.25e+10",
    "12345678901234567890", "0.000001", "123456789.987654321",
  ])
  func acceptsNumbers(_ text: String) {
    #expect(parse(text).result == .complete(end: text.utf8.count))
    #expect(parse("[\(text)]").compact == "[\(text)]")
  }

  @Test(arguments: [
    (#""x""#, 3), ("42", 2), ("-7 ", 2), ("true", 4), ("null ", 4), (#"{"a":1} {"b":2}"#, 7),
    ("  {}", 4), ("[1]x", 3),
  ])
  func completesTopLevelValueWhereItEnds(_ text: String, _ end: Int) {
    #expect(parse(text).result == .complete(end: end))
  }

  // MARK: - Rejected texts

  static let grammar: [Rejection] = [
    Rejection(#"{"a":1,}"#, at: 6, "trailing comma before '}'"),
    Rejection("[1,2,]", at: 4, "trailing comma before ']'"),
    Rejection(#"{"a":1, }"#, at: 6, "trailing comma before '}'"),
    Rejection("[1,\n]", at: 2, "trailing comma before ']'"),
    Rejection("// note\n{}", at: 0, "comments are not allowed in JSON"),
    Rejection(#"{"a":1 /* note */}"#, at: 7, "comments are not allowed in JSON"),
    Rejection("{/* note */}", at: 1, "comments are not allowed in JSON"),
    Rejection("[1,/**/2]", at: 3, "comments are not allowed in JSON"),
    Rejection("{'a':1}", at: 1, "strings must use double quotes, not single quotes"),
    Rejection("['a']", at: 1, "strings must use double quotes, not single quotes"),
    Rejection(#"{"a":'b'}"#, at: 5, "strings must use double quotes, not single quotes"),
    Rejection("NaN", at: 0, "unexpected word 'NaN'" + word),
    Rejection("[Infinity]", at: 1, "unexpected word 'Infinity'" + word),
    Rejection(#"{"a":undefined}"#, at: 5, "unexpected word 'undefined'" + word),
    Rejection("{a:1}", at: 1, "object keys must be quoted: unexpected word 'a'" + word),
    Rejection("True", at: 0, "unexpected word 'True'" + word),
    Rejection("nul", at: 0, "unexpected word 'nul'" + word),
    Rejection("nulls", at: 0, "unexpected word 'nulls'" + word),
    Rejection("[true1]", at: 1, "unexpected word 'true1'" + word),
    Rejection("[nullx]", at: 1, "unexpected word 'nullx'" + word),
    Rejection("[falsy]", at: 1, "unexpected word 'falsy'" + word),
    Rejection("[falsee]", at: 1, "unexpected word 'falsee'" + word),
    Rejection("[nulL]", at: 1, "unexpected word 'nulL'" + word),
    Rejection(#"{"a":true_}"#, at: 5, "unexpected word 'true_'" + word),
    Rejection("[0x10]", at: 2, "unexpected word 'x10'" + word),
    Rejection("-Infinity", at: 0, "invalid number: expected a digit after '-'"),
    Rejection("01", at: 0, "numbers must not have leading zeros"),
    Rejection("-01", at: 0, "numbers must not have leading zeros"),
    Rejection("[00]", at: 1, "numbers must not have leading zeros"),
    Rejection("1.", at: 0, "invalid number: expected a digit after '.'"),
    Rejection("[1.]", at: 1, "invalid number: expected a digit after '.'"),
    Rejection("1.e5", at: 0, "invalid number: expected a digit after '.'"),
    Rejection(".5", at: 0, "expected a JSON value, found '.'"),
    Rejection("-", at: 0, "invalid number: expected a digit after '-'"),
    Rejection("1e", at: 0, "invalid number: expected a digit in the exponent"),
    Rejection("1e+", at: 0, "invalid number: expected a digit in the exponent"),
    Rejection("[1E-]", at: 1, "invalid number: expected a digit in the exponent"),
    Rejection("+1", at: 0, "expected a JSON value, found '+'"),
    Rejection("[1 2]", at: 3, "expected ',' or ']' after an array element, found '2'"),
    Rejection(
      #"{"a":1 "b":2}"#, at: 7,
      #"expected ',' or '}' after an object member, found '"' (missing comma?)"#),
    Rejection(
      "[{} {}]", at: 4, "expected ',' or ']' after an array element, found '{' (missing comma?)"),
    Rejection(
      "[[] []]", at: 4, "expected ',' or ']' after an array element, found '[' (missing comma?)"),
    Rejection(#"{"a" 1}"#, at: 5, "expected ':' after the key, found '1'"),
    Rejection(#"{"a":}"#, at: 5, "expected a JSON value, found '}'"),
    Rejection("{,}", at: 1, "expected a string key, found ','"),
    Rejection("[,1]", at: 1, "expected a JSON value, found ','"),
    Rejection("{1:2}", at: 1, "expected a string key, found '1'"),
    Rejection("]", at: 0, "expected a JSON value, found ']'"),
    Rejection(#"{"a":1]"#, at: 6, "expected ',' or '}' after an object member, found ']'"),
    Rejection(#"{"a":1"#, at: 6, "unexpected end of input inside an object"),
    Rejection("[1,2", at: 4, "unexpected end of input inside an array"),
    Rejection(#"{"a":"#, at: 5, "unexpected end of input inside an object"),
    Rejection("", at: 0, "unexpected end of input"),
    Rejection("   ", at: 3, "unexpected end of input"),
    Rejection(#""abc"#, at: 0, "string is not closed before the end of input"),
    Rejection(#"{"a"#, at: 1, "string is not closed before the end of input"),
    Rejection("\u{FEFF}{}", at: 0, "expected a JSON value, found byte order mark (U+FEFF)"),
    Rejection(
      "[1,\u{A0}2]", at: 3,
      "expected a JSON value, found no-break space (U+00A0); JSON white space is space, tab, CR and LF only"
    ),
    Rejection(
      "{\u{201C}a\u{201D}:1}", at: 1,
      "expected a string key, found curly quote '\u{201C}' (U+201C); JSON strings need straight double quotes"
    ),
    Rejection("[\u{200B}1]", at: 1, "expected a JSON value, found zero width space (U+200B)"),
    Rejection("[1,\u{0C}2]", at: 3, "expected a JSON value, found control character U+000C"),
    Rejection("[\u{0B}1]", at: 1, "expected a JSON value, found control character U+000B"),
    Rejection("[é]", at: 1, "expected a JSON value, found 'é' (U+00E9)"),
  ]

  @Test(arguments: grammar)
  func rejectsInvalidGrammarWithOffsetAndMessage(_ rejection: Rejection) {
    #expect(parseError(rejection.bytes) == rejection.error)
  }

  static let strings: [Rejection] = [
    Rejection("\"a\tb\"", at: 2, "unescaped control character tab (U+0009) in a string"),
    Rejection(
      "\"a\nb\"", at: 2,
      "unescaped control character line feed (U+000A) in a string (a line break must be written \\n)"
    ),
    // The message names the character once: not "control character control character".
    Rejection("\"\r\"", at: 1, "unescaped control character U+000D in a string"),
    Rejection("\"\u{0}\"", at: 1, "unescaped control character U+0000 in a string"),
    Rejection("\"\u{1F}\"", at: 1, "unescaped control character U+001F in a string"),
    Rejection(#""\x""#, at: 1, #"invalid escape '\x'"#),
    Rejection(#""ab\a""#, at: 3, #"invalid escape '\a'"#),
    Rejection(#""\U0041""#, at: 1, #"invalid escape '\U'"#),
    Rejection(#""\'""#, at: 1, #"invalid escape '\''"#),
    Rejection("\"\\\u{1}\"", at: 1, "invalid escape: a backslash before control character U+0001"),
    Rejection("\"\\ \"", at: 1, "invalid escape: a backslash before space"),
    Rejection("\"\\\u{7F}\"", at: 1, "invalid escape: a backslash before control character U+007F"),
    Rejection("\"\\\t\"", at: 1, "invalid escape: a backslash before tab (U+0009)"),
    Rejection("\"\\é\"", at: 1, "invalid escape '\\é' (U+00E9)"),
    Rejection(#""\u12""#, at: 1, #"invalid \u escape: expected four hex digits"#),
    Rejection(#""\u12G4""#, at: 1, #"invalid \u escape: expected four hex digits"#),
    Rejection(#""\u""#, at: 1, #"invalid \u escape: expected four hex digits"#),
    Rejection(#""\"#, at: 0, "string is not closed before the end of input"),
    Rejection(#""\u00"#, at: 0, "string is not closed before the end of input"),
    Rejection(#""\udc00""#, at: 1, #"unpaired low surrogate escape '\uDC00'"#),
    Rejection(#""\uDFFF""#, at: 1, #"unpaired low surrogate escape '\uDFFF'"#),
    Rejection(#""\ude00\ud83d""#, at: 1, #"unpaired low surrogate escape '\uDE00'"#),
    Rejection(#""\ud800""#, at: 1, #"unpaired high surrogate escape '\uD800'"#),
    Rejection(#"["\ud800"]"#, at: 2, #"unpaired high surrogate escape '\uD800'"#),
    Rejection(#""x\uDBFF""#, at: 2, #"unpaired high surrogate escape '\uDBFF'"#),
    Rejection(#""\ud800\u0041""#, at: 1, #"unpaired high surrogate escape '\uD800'"#),
    Rejection(#""\ud800\ud800""#, at: 1, #"unpaired high surrogate escape '\uD800'"#),
    Rejection(#""\ud800abcdefgh""#, at: 1, #"unpaired high surrogate escape '\uD800'"#),
    Rejection(#""\ud800\ndc00""#, at: 1, #"unpaired high surrogate escape '\uD800'"#),
    Rejection(#""\ud800\udc0""#, at: 7, #"invalid \u escape: expected four hex digits"#),
  ]

  @Test(arguments: strings)
  func rejectsControlCharactersAndBadEscapesInStrings(_ rejection: Rejection) {
    #expect(parseError(rejection.bytes) == rejection.error)
  }

  static let utf8: [Rejection] = [
    Rejection(bytes: [0x22, 0xC0, 0x80, 0x22], at: 1, "invalid UTF-8 byte 0xC0", .invalidUTF8),
    Rejection(bytes: [0x22, 0xC1, 0xBF, 0x22], at: 1, "invalid UTF-8 byte 0xC1", .invalidUTF8),
    Rejection(
      bytes: [0x22, 0xE0, 0x80, 0x80, 0x22], at: 1, "invalid UTF-8 byte 0xE0", .invalidUTF8),
    Rejection(
      bytes: [0x22, 0xE0, 0x9F, 0xBF, 0x22], at: 1, "invalid UTF-8 byte 0xE0", .invalidUTF8),
    Rejection(
      bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], at: 1, "invalid UTF-8 byte 0xED", .invalidUTF8),
    Rejection(
      bytes: [0x22, 0xED, 0xBF, 0xBF, 0x22], at: 1, "invalid UTF-8 byte 0xED", .invalidUTF8),
    Rejection(
      bytes: [0x22, 0xF0, 0x80, 0x80, 0x80, 0x22], at: 1, "invalid UTF-8 byte 0xF0", .invalidUTF8),
    Rejection(
      bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], at: 1, "invalid UTF-8 byte 0xF4", .invalidUTF8),
    Rejection(
      bytes: [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], at: 1, "invalid UTF-8 byte 0xF5", .invalidUTF8),
    Rejection(bytes: [0x22, 0xFF, 0x22], at: 1, "invalid UTF-8 byte 0xFF", .invalidUTF8),
    Rejection(bytes: [0x22, 0x61, 0x80, 0x22], at: 2, "invalid UTF-8 byte 0x80", .invalidUTF8),
    Rejection(bytes: [0x22, 0xE2, 0x82, 0x22], at: 1, "invalid UTF-8 byte 0xE2", .invalidUTF8),
    Rejection(
      bytes: [0x22, 0xC3, 0xC3, 0xA9, 0x22], at: 1, "invalid UTF-8 byte 0xC3", .invalidUTF8),
    Rejection(bytes: [0x22, 0x61, 0xC3], at: 2, "invalid UTF-8 byte 0xC3", .invalidUTF8),
    Rejection(bytes: [0x22, 0xE2, 0x82], at: 1, "invalid UTF-8 byte 0xE2", .invalidUTF8),
    Rejection(bytes: [0x22, 0xF0, 0x9F, 0x98], at: 1, "invalid UTF-8 byte 0xF0", .invalidUTF8),
    Rejection(bytes: [0x5B, 0xC0, 0x5D], at: 1, "invalid UTF-8 byte 0xC0", .invalidUTF8),
    Rejection(bytes: [0x7B, 0xFF, 0x7D], at: 1, "invalid UTF-8 byte 0xFF", .invalidUTF8),
  ]

  @Test(arguments: utf8)
  func rejectsInvalidUTF8AtItsFirstByte(_ rejection: Rejection) {
    #expect(parseError(rejection.bytes) == rejection.error)
  }

  /// A reader hands the parser whatever a read brought: a text rejected before its end must be
  /// rejected with the same message however much of it has arrived, or be waited for.
  @Test(arguments: grammar + strings + utf8)
  func rejectsWithTheSameMessageWhateverPartHasArrived(_ rejection: Rejection) {
    for count in 0..<rejection.bytes.count where count > 0 {
      let result = parse(Array(rejection.bytes[..<count]), isFinal: false).result
      if case .failed(let error) = result {
        #expect(error == rejection.error, "after \(count) bytes")
      }
    }
  }

  @Test(
    arguments: [[0x22, 0xC3], [0x22, 0xE2, 0x82], [0x22, 0xF0, 0x9F, 0x98], [0x22, 0xF0]]
      as [[UInt8]])
  func waitsForTheRestOfAUTF8SequenceCutAtTheEnd(_ bytes: [UInt8]) {
    #expect(parse(bytes, isFinal: false).result == .incomplete)
    #expect(parseError(bytes)?.code == .invalidUTF8)
  }

  @Test(
    arguments: [[0x22, 0xC0], [0x22, 0xE0, 0x80], [0x22, 0xED, 0xA0], [0x22, 0xF5]] as [[UInt8]])
  func rejectsAnImpossibleUTF8SequenceWithoutWaitingForMore(_ bytes: [UInt8]) {
    let result = parse(bytes, isFinal: false).result
    #expect(
      result
        == .failed(
          JSONError(.invalidUTF8, at: 1, "invalid UTF-8 byte \(JSONParser.hexByte(bytes[1]))")))
  }

  // MARK: - Strings

  @Test func decodesEscapesAndSurrogatePairs() {
    let text = #""a\"b\\c\/d\b\f\n\r\t\u00e9\u00E9\ud83d\ude00\uD83D\uDE00\u0000""#
    let decoded = withView(of: text) { $0.string(0) }
    #expect(decoded == "a\"b\\c/d\u{8}\u{C}\n\r\téé😀😀\u{0}")
  }

  @Test func decodesTheHighestAndLowestSurrogatePairs() {
    #expect(withView(of: #""\ud800\udc00""#) { $0.string(0) } == "\u{10000}")
    #expect(withView(of: #""\udbff\udfff""#) { $0.string(0) } == "\u{10FFFF}")
  }

  /// Strings are scanned sixteen bytes at a time: a special byte is found at every position.
  @Test(arguments: 0..<40)
  func findsASpecialByteAtAnyPositionInALongString(_ position: Int) {
    let before = [UInt8](repeating: UInt8(ascii: "a"), count: position)
    let after = [UInt8](repeating: UInt8(ascii: "b"), count: 40 - position)
    func text(_ middle: [UInt8]) -> [UInt8] { [0x22] + before + middle + after + [0x22] }
    #expect(
      parseError(text([0x01]))
        == JSONError(
          .invalidJSON, at: 1 + position,
          "unescaped control character U+0001 in a string"))
    #expect(
      parseError(text([0xC0, 0x80]))
        == JSONError(.invalidUTF8, at: 1 + position, "invalid UTF-8 byte 0xC0"))
    #expect(
      parseError(text([0x5C, 0x71]))
        == JSONError(.invalidJSON, at: 1 + position, #"invalid escape '\q'"#))
    #expect(parse([0x22] + before + [0x22] + after).result == .complete(end: position + 2))
    let accented = text([0xC3, 0xA9])
    #expect(parse(accented).result == .complete(end: accented.count))
    #expect(parse(accented).compact == String(decoding: accented, as: UTF8.self))
  }

  @Test(arguments: 0..<70)
  func acceptsPlainStringsOfEveryLength(_ length: Int) {
    let text = "\"" + String(repeating: "x", count: length) + "\""
    #expect(parse(text).result == .complete(end: length + 2))
  }

  // MARK: - Duplicate keys

  static let duplicates: [Rejection] = [
    Rejection(#"{"a":1,"a":2}"#, at: 7, "duplicate key 'a'", .duplicateKey),
    Rejection(#"{"a":1,"\u0061":2}"#, at: 7, "duplicate key 'a'", .duplicateKey),
    Rejection(#"{"\u0061":1,"a":2}"#, at: 12, "duplicate key 'a'", .duplicateKey),
    Rejection(#"{"é":1,"\u00e9":2}"#, at: 8, "duplicate key 'é'", .duplicateKey),
    Rejection(#"{"\/":1,"/":2}"#, at: 8, "duplicate key '/'", .duplicateKey),
    Rejection(#"{"a":1,"b":2,"a":3}"#, at: 13, "duplicate key 'a'", .duplicateKey),
    Rejection(#"{"x":{"a":1,"b":2,"a":3}}"#, at: 18, "duplicate key 'a'", .duplicateKey),
    Rejection(#"{"":1,"":2}"#, at: 6, "duplicate key ''", .duplicateKey),
  ]

  @Test(arguments: duplicates)
  func rejectsDuplicateKeysAfterUnescaping(_ rejection: Rejection) {
    #expect(parseError(rejection.bytes) == rejection.error)
  }

  /// Keys are compared as sequences of code points (RFC 8259 section 8.3), not by Unicode
  /// canonical equivalence: precomposed and decomposed spellings are different keys.
  @Test func keysThatDifferInNormalizationAreDistinctWhenWrittenRaw() {
    let text = "{\"\u{E9}\":1,\"e\u{301}\":2}"
    #expect(parse(text).result == .complete(end: text.utf8.count))
  }

  @Test(
    arguments: [
      #"{"\u00e9":1,"e\u0301":2}"#,
      "{\"\\u00e9\":1,\"e\u{301}\":2}",
      #"{"K":1,"\u212A":2}"#,
      #"{"\u2126":1,"\u03a9":2}"#,
    ])
  func keysThatDifferInNormalizationAreDistinctWhenEscaped(_ text: String) {
    #expect(parse(text).result == .complete(end: text.utf8.count))
  }

  /// Every size of object takes its own path (pairs, a filtered scan, a hash table), raw or
  /// escaped: none may compare keys by canonical equivalence.
  @Test(
    arguments: [0, 3, 10, 40],
    [
      ("\"\u{E9}\"", "\"e\u{301}\""), (#""\u00e9""#, "\"e\u{301}\""), (#""\u00e9""#, #""e\u0301""#),
      (#""K""#, #""\u212A""#), ("\"\u{2126}\"", #""\u03a9""#),
    ])
  func keysThatDifferInNormalizationAreDistinctInObjectsOfEverySize(
    _ fillers: Int, _ keys: (String, String)
  ) {
    let filler = (0..<fillers).map { #""k\#($0)":0"# }
    let text = "{" + (filler + ["\(keys.0):1", "\(keys.1):2"]).joined(separator: ",") + "}"
    #expect(parse(text).result == .complete(end: text.utf8.count))
  }

  /// Objects of up to 32 keys are compared pairwise, bigger ones through a set: both find the
  /// duplicate, escaped or not.
  @Test(arguments: [2, 3, 31, 32, 33, 34, 64, 200])
  func rejectsADuplicateAmongManyKeys(_ keyCount: Int) {
    let distinct = (0..<keyCount - 1).map { #""k\#($0)":\#($0)"# }
    for duplicate in [#""k0""#, #""k\u0030""#] {
      let text = "{" + (distinct + ["\(duplicate):-1"]).joined(separator: ",") + "}"
      #expect(
        parseError(text)
          == JSONError(
            .duplicateKey, at: byteOffset(of: duplicate, in: text, last: true), "duplicate key 'k0'"
          ))
    }
    let unique = "{" + (distinct + [#""last":-1"#]).joined(separator: ",") + "}"
    #expect(parse(unique).result == .complete(end: unique.utf8.count))
  }

  /// Objects nested in objects and arrays, siblings with the same keys, and a key repeated
  /// only at another depth: each object's keys are its own.
  @Test(arguments: [
    (#"{"x":[{"a":1,"b":{"c":1,"c":2}}]}"#, 24 as Int?),
    (#"{"a":{"a":1},"a":2}"#, 13),
    (#"{"a":{"b":1,"c":1},"b":2,"c":3}"#, nil),
    (#"{"p":{"a":1,"b":2},"q":{"a":1,"b":2}}"#, nil),
    (#"[{"a":1,"b":2},{"b":1,"a":2},{"a":1,"a":2}]"#, 36),
    (#"{"a":{"b":{"c":{}}},"b":{"c":{"a":{}}},"c":{"a":{"b":{}}}}"#, nil),
    (#"{"x":{"ab":1,"ba":2,"ab":3}}"#, 20),
  ])
  func keysRepeatOnlyWithinTheirOwnObject(_ text: String, _ duplicateAt: Int?) {
    #expect(parseError(text)?.offset == duplicateAt, "\(text)")
  }

  /// Random documents of objects nested in objects and arrays, whose keys are drawn from a few
  /// short spellings, some escaped, so that keys share their filter bit, repeat, or both
  /// (`JSONParser.keyFilters`): each fails at the first key that repeats one before it in the
  /// first object to close with such a key, or parses when none repeats.
  @Test func everyRepeatedKeyIsFoundWhereverItIs() {
    // Spellings and what they spell: "a" twice, "ab" twice.
    let keys: [(raw: String, key: String)] = [
      ("a", "a"), (#"\u0061"#, "a"), ("b", "b"), ("ab", "ab"), (#"a\u0062"#, "ab"),
      ("ba", "ba"), ("", ""), ("c", "c"), ("k0", "k0"), ("k1", "k1"), ("kk", "kk"),
    ]
    var random = SplitMix(seed: 23)
    var failures = 0
    for _ in 0..<3000 {
      var text = ""
      // Each object as it closes: the offset and the spelled text of each of its keys.
      var closed: [[(offset: Int, key: String)]] = []
      func value(_ depth: Int) {
        switch depth < 4 ? random.below(4) : 0 {
        case 0: text += "1"
        case 1:
          text += "["
          for k in 0..<random.below(3) {
            if k > 0 { text += "," }
            value(depth + 1)
          }
          text += "]"
        default:
          text += "{"
          var members: [(offset: Int, key: String)] = []
          for k in 0..<random.below(6) {
            if k > 0 { text += "," }
            let key = random.pick(keys)
            members.append((text.utf8.count, key.key))
            text += "\"\(key.raw)\":"
            value(depth + 1)
          }
          text += "}"
          closed.append(members)
        }
      }
      value(0)
      var expected: Int? = nil
      search: for members in closed {
        for (index, member) in members.enumerated()
        where members[..<index].contains(where: { $0.key == member.key }) {
          expected = member.offset
          break search
        }
      }
      let error = parseError(text)
      if error?.offset != expected || (expected != nil && error?.code != .duplicateKey) {
        failures += 1
        Issue.record(
          "\(text): \(String(describing: error)), expected a duplicate at \(String(describing: expected))"
        )
        if failures > 3 { return }
      }
    }
  }

  // MARK: - Nesting

  @Test func acceptsArraysNested128LevelsAndRejects129() {
    let ok = String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
    #expect(parse(ok).result == .complete(end: 256))
    let deep = String(repeating: "[", count: 129) + String(repeating: "]", count: 129)
    #expect(
      parseError(deep)
        == JSONError(.nestingTooDeep, at: 128, "objects and arrays nested deeper than 128 levels"))
  }

  @Test func acceptsObjectsNested128LevelsAndRejects129() {
    func nested(_ depth: Int) -> String {
      String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
    }
    #expect(parse(nested(128)).result == .complete(end: nested(128).utf8.count))
    #expect(
      parseError(nested(129))
        == JSONError(.nestingTooDeep, at: 640, "objects and arrays nested deeper than 128 levels"))
  }

  @Test func rejectsVeryDeepNestingWithoutOverflowingTheStack() {
    let deep = String(repeating: "[", count: 1_000_000)
    #expect(parseError(deep)?.code == .nestingTooDeep)
    #expect(
      parse(deep, isFinal: false).result
        == .failed(
          JSONError(.nestingTooDeep, at: 128, "objects and arrays nested deeper than 128 levels")))
  }

  @Test func honorsACustomNestingLimit() {
    #expect(parse("[[[]]]", maxDepth: 3).result == .complete(end: 6))
    #expect(
      parse("[[[[]]]]", maxDepth: 3).result
        == .failed(
          JSONError(.nestingTooDeep, at: 3, "objects and arrays nested deeper than 3 levels")))
  }

  // MARK: - Streaming

  static let documents: [String] = [
    #"{"a":[1,-2.5e-3,true,false,null,"x\u00e9\ud83d\ude00\n"],"b":{"c":"é😀","d":{}},"long":"abcdefghijklmnopqrstuvwxyz0123456789"}"#,
    #"[ [] , {} , [ {"k" : [ ] } ] , "pretty" , 0 , 10E+2 ]"#,
    "{\n  \"aps\": {\n    \"alert\": {\n      \"title\": \"Caf\u{E9}\",\n      \"body\": \"\\u2603 \u{1F600}\"\n    },\n    \"badge\": 12\n  }\n}",
  ]

  @Test(arguments: documents)
  func everyProperPrefixIsIncompleteUntilTheInputIsFinal(_ document: String) {
    let bytes = Array(document.utf8)
    for length in 0..<bytes.count {
      let prefix = Array(bytes[0..<length])
      let open = parse(prefix, isFinal: false).result
      #expect(open == .incomplete, "prefix of \(length) bytes")
      guard case .failed = parse(prefix, isFinal: true).result else {
        Issue.record("a prefix of \(length) bytes must fail when final")
        continue
      }
    }
    #expect(parse(bytes, isFinal: false).result == .complete(end: bytes.count))
    #expect(parse(bytes, isFinal: true).result == .complete(end: bytes.count))
  }

  @Test(arguments: ["12", "-", "-1.5e", "tru", "nul", "fals", #""abc"#])
  func aScalarAtTheEndOfTheBytesIsIncompleteUntilFinal(_ text: String) {
    #expect(parse(text, isFinal: false).result == .incomplete)
  }

  /// A word at the end of the bytes may go on (`truex`), as a number may (`12` then `3`).
  @Test(arguments: ["true", "false", "null"])
  func aTopLevelLiteralAtTheEndOfTheBytesIsIncompleteUntilFinal(_ text: String) {
    #expect(parse(text, isFinal: false).result == .incomplete)
    #expect(parse(text, isFinal: true).result == .complete(end: text.utf8.count))
  }

  @Test(arguments: ["true ", "false,", "null\n", "[true", "{\"a\":null"])
  func aLiteralFollowedByAnotherByteNeedsNoMoreInput(_ text: String) {
    let result = parse(text, isFinal: false).result
    if text.hasPrefix("[") || text.hasPrefix("{") {
      #expect(result == .incomplete)
    } else {
      #expect(result == .complete(end: text.utf8.count - 1))
    }
  }

  @Test func emptyInputIsIncompleteUntilFinal() {
    #expect(parse("", isFinal: false).result == .incomplete)
    #expect(parse(" \n", isFinal: false).result == .incomplete)
    #expect(
      parse("", isFinal: true).result
        == .failed(JSONError(.invalidJSON, at: 0, "unexpected end of input")))
  }

  @Test func oneParserIsReusedAcrossTexts() {
    var parser = JSONParser()
    let texts = [#"{"a": [1, 2]}"#, "[", #"{"b":"\u00e9"}"#, "x", #"{"c":3}"#]
    var outputs: [String] = []
    for text in texts {
      let bytes = Array(text.utf8)
      bytes.withUnsafeBytes { raw in
        switch parser.parse(raw, isFinal: true) {
        case .complete:
          var out = ByteBuffer()
          parser.withView(over: raw) { JSONWriter.writeCompact($0, 0, into: &out) }
          outputs.append(out.text + (parser.isCompact ? " compact" : ""))
        case .failed(let error): outputs.append("error at \(error.offset)")
        case .incomplete: outputs.append("incomplete")
        }
      }
    }
    #expect(
      outputs == [#"{"a":[1,2]}"#, "error at 1", #"{"b":"é"}"#, "error at 0", #"{"c":3} compact"#])
  }

  // MARK: - Compactness

  @Test(arguments: [
    (#"{"a":1}"#, true), (#"{"a": 1}"#, false), (#"{"a":"\n"}"#, true), (#"{"a":"é"}"#, true),
    (#"{"a":"\u00e9"}"#, false), (#"{"a":"\/"}"#, false), ("[1,2]", true), ("[1, 2]", false),
    (" [1]", false), ("[1]\n", true), (#"{"a":[true,null,{"b":-1.5e3}]}"#, true), ("{\n}", false),
    (#""\"""#, true), (#""\u0041""#, false), (#""\u000a""#, false), (#""\\\b\f\r\t""#, true),
  ])
  func reportsWhetherTheTextIsAlreadyCompact(_ text: String, _ isCompact: Bool) {
    #expect(parse(text).isCompact == isCompact)
  }

  /// The claim `isCompact` makes: the raw bytes are exactly what the writer would write.
  @Test(arguments: [
    #"{"a":1}"#, #"{"a":"é","b":[1.0,1e5,true,null,{}]}"#, "[]", #""x""#, "12345678901234567890",
    #"{"a\"b":"\\\n\t\r\b\f\""}"#,
  ])
  func compactTextIsItsOwnCanonicalForm(_ text: String) {
    let parsed = parse(text)
    #expect(parsed.isCompact)
    #expect(parsed.compact == text)
  }

  // MARK: - The view

  @Test(arguments: [
    "0", "-0", "1", "0.5", "-0.25", "1.0", "0.1", "0.7", "0.3333333333333", "123456789012345",
    "1234567890.12345", "-999999999999999", "0.000000000000001", "1234567890123456", "1e2",
    "1.5E-3", "0.1000000000000001", "9007199254740993", "2.2250738585072014e-308",
  ])
  func readsNumbersAsDoublesAsStrtodDoes(_ text: String) throws {
    let bytes = Array(text.utf8)
    var parser = JSONParser()
    let value = bytes.withUnsafeBytes { raw -> Double? in
      guard case .complete = parser.parse(raw, isFinal: true) else { return nil }
      return parser.withView(over: raw) { $0.double(0) }
    }
    let expected = try #require(Double(text))
    #expect(value == expected)
    #expect(value?.sign == expected.sign)
  }

  @Test func viewFindsMembersAndElements() {
    let text = #"{"a":1,"b":{"c":[2,"x",[3]]},"\u0064":true}"#
    withView(of: text) { view in
      #expect(view.kind(0) == .object)
      #expect(view.tokens[0].count == 3)
      let b = view.member(0, "b")
      #expect(b.map { view.kind($0) } == .object)
      let c = b.flatMap { view.member($0, "c") }
      #expect(c.map { view.tokens[$0].count } == 3)
      #expect(view.member(0, "z") == nil)
      #expect(view.member(0, "d").flatMap { view.bool($0) } == true)
      #expect(c.flatMap { view.member($0, "a") } == nil)
      var keys: [String] = []
      view.forEachMember(of: 0) { key, _ in keys.append(view.string(key)) }
      #expect(keys == ["a", "b", "d"])
      var kinds: [JSONKind] = []
      if let c { view.forEachElement(of: c) { kinds.append(view.kind($0)) } }
      #expect(kinds == [.number, .string, .array])
    }
  }

  @Test(arguments: [
    ("9223372036854775807", Int64.max), ("-9223372036854775808", Int64.min), ("-0", 0), ("0", 0),
    ("42", 42),
  ])
  func readsIntegersThatFitIn64Bits(_ text: String, _ value: Int64) {
    #expect(withView(of: text) { $0.integer(0) } == value)
  }

  @Test(arguments: ["9223372036854775808", "-9223372036854775809", "1.0", "1e2", #""5""#, "true"])
  func readsNoIntegerFromOtherValues(_ text: String) {
    #expect(withView(of: text) { $0.integer(0) } == .some(nil))
  }

  @Test func readsDoublesBoolsAndStringsOnlyFromTheirKinds() {
    #expect(withView(of: "1.5e-3") { $0.double(0) } == 0.0015)
    #expect(withView(of: "7") { $0.double(0) } == 7)
    #expect(withView(of: #""7""#) { $0.double(0) } == .some(nil))
    #expect(withView(of: "false") { $0.bool(0) } == false)
    #expect(withView(of: "null") { $0.bool(0) } == .some(nil))
    #expect(withView(of: "0") { $0.stringValue(0) } == .some(nil))
    #expect(withView(of: #""\u0041b""#) { $0.stringValue(0) } == "Ab")
    #expect(
      withView(of: #""a\nb""#) { String(decoding: $0.rawString(0), as: UTF8.self) } == #"a\nb"#)
  }

  @Test func errorDescriptionIsItsMessage() {
    #expect(JSONError(.invalidJSON, at: 3, "oops").description == "oops")
    #expect(JSONError.Code.nestingTooDeep.rawValue == "NestingTooDeep")
    #expect(JSONError.Code.recordTooLarge.rawValue == "RecordTooLarge")
  }

  // MARK: - Expected keys

  /// How many leading members of the outermost object have the keys expected at their places,
  /// each written as it is (no escape) with its colon right after it: the count stops at the
  /// first that has not, whatever follows.
  @Test(arguments: [
    (#"{"a":1,"b":[{"a":2}],"":null,"id":"x","aps":{},"c":true,"d":0}"#, 6),
    (#"{"a":1,"b":2,"id":3}"#, 2),  // "" expected third
    (#"{"a" :1,"b":2}"#, 0),  // white space before the colon
    (#"{"a":1,"b"\#t:2}"#, 1),
    (#"{ "a":1,\#n "b": 2}"#, 2),  // white space elsewhere is no matter
    (#"{"\u0061":1,"b":2}"#, 0),  // the key escaped
    (#"{"ab":1}"#, 0),
    (#"{"b":1,"a":2}"#, 0),
    (#"{}"#, 0),
    (#"[{"a":1}]"#, 0),  // not the outermost value
    (#"{"x":{"a":1,"b":2}}"#, 0),
    (#""a""#, 0),
  ])
  func countsTheMembersWithTheExpectedKeys(_ text: String, _ seen: Int) {
    var parser = JSONParser()
    parser.expectRootKeys(testExpectedKeys)
    let bytes = Array(text.utf8)
    bytes.withUnsafeBytes { raw in
      let result = parser.parse(raw, isFinal: true)
      #expect(result == .complete(end: bytes.count), "\(text)")
    }
    #expect(parser.expectedKeysSeen == seen, "\(text)")
    _ = parse(bytes)  // the same tape as without expected keys, on every path
  }

  /// A member whose key is a later expected key than the next (those between left out, as a
  /// record leaves out its null fields) is read by that key too: the count of leading members
  /// stops at the first key left out, `expectedKeysComplete` says whether every member had an
  /// expected key, each a later one, and `expectedKeyValues.all` where each key's value is (-1
  /// for a key the object lacks). The tape is the one without expected keys (`parse`).
  @Test(arguments: [
    (#"{"a":1,"id":2,"aps":[3],"c":4}"#, 1, true),
    (#"{"b":1,"":2}"#, 0, true),
    (#"{"c":{"a":1}}"#, 0, true),
    (#"{"a":1,"b":2,"":3,"id":4,"aps":5,"c":6}"#, 6, true),
    (#"{}"#, 0, true),
    (#"{"a":1,"id":2,"b":3}"#, 1, false),  // b before id: out of order
    (#"{"b":1,"id" :2}"#, 0, false),  // white space before the colon
    (#"{"id":1,"\u0063":2}"#, 0, false),  // a key escaped
    (#"{"aps":1,"x":2}"#, 0, false),  // a key not expected
    (#"{"c":1,"a":2}"#, 0, false),  // a member after the last expected key
    (#"[{"a":1}]"#, 0, false),
  ])
  func keysLeftOutAreSkippedToALaterExpectedKey(_ text: String, _ seen: Int, _ complete: Bool) {
    var parser = JSONParser()
    parser.expectRootKeys(testExpectedKeys)
    let bytes = Array(text.utf8)
    let values = bytes.withUnsafeBytes { raw -> [Int32]? in
      guard case .complete = parser.parse(raw, isFinal: true) else { return nil }
      // Each expected key's value by a look at every member: the token after the key.
      return parser.withView(over: raw) { view in
        testExpectedKeys.map { key in
          var member = 1
          for _ in 0..<(view.kind(0) == .object ? Int(view.tokens[0].count) : 0) {
            if Array(view.raw(member)) == [0x22] + key + [0x22] { return Int32(member + 1) }
            member = Int(view.tokens[member + 1].next)
          }
          return -1
        }
      }
    }
    #expect(values != nil, "\(text)")
    #expect(parser.expectedKeysSeen == seen, "\(text)")
    #expect(parser.expectedKeysComplete == complete, "\(text)")
    #expect(parser.expectedKeyValues.all.map { Array($0) } == (complete ? values : nil), "\(text)")
    _ = parse(bytes)
  }

  /// A text that ends or fails at any byte of an expected key, or of the colon after it, gives
  /// the answer it gives without expected keys; the count starts again at each parse.
  @Test func expectedKeysCutAnywhereAnswerAsWithout() {
    let text = Array(#"{"a":1,"b":{"a":2},"":"v","id":"x"}"#.utf8)
    for end in 0...text.count {
      for isFinal in [true, false] {
        _ = parse(Array(text[..<end]), isFinal: isFinal)
      }
      var broken = text
      if end < text.count {
        broken[end] = 0x2C
        _ = parse(broken)
      }
    }
    var parser = JSONParser()
    parser.expectRootKeys(testExpectedKeys)
    for (text, seen) in [(#"{"a":1,"b":2}"#, 2), (#"{"b":2}"#, 0), (#"{"a":1,"b":2,"":3}"#, 3)] {
      Array(text.utf8).withUnsafeBytes { _ = parser.parse($0, isFinal: true) }
      #expect(parser.expectedKeysSeen == seen, "\(text)")
    }
  }

  /// The value of a member with an expected key is read with the comma and the next key's
  /// quote at once when it is a string, a number or a literal (`JSONParser.memberValue`). Every
  /// kind of value, followed by the next key, the end of the object, white space or a trailing
  /// comma, cut at each byte or with each byte changed, gives the answer and tape it gives
  /// without expected keys (`parse` compares them).
  @Test(arguments: [
    #"{"a":null,"b":true,"":false,"id":"x\"y","aps":-1.5e3,"c":0}"#,
    #"{"a":"é","b":nul,"":1}"#,
    #"{"a":null,}"#,
    #"{"a":true, "b":1}"#,
    #"{"a":false ,"b":1}"#,
    #"{"a":"s","b":{"a":null,"b":2},"":[null,"x"],"id":1}"#,
    #"{"a":12,"b":"t"}"#,
    #"{"a":nullx,"b":1}"#,
    #"{"a":truex,"b":1}"#,
    #"{"a":"x\u0041","b":"\ud800"}"#,
  ])
  func membersReadWithTheirCommaAnswerAsWithout(_ text: String) {
    let bytes = Array(text.utf8)
    for end in 0...bytes.count {
      for isFinal in [true, false] {
        _ = parse(Array(bytes[..<end]), isFinal: isFinal)
      }
    }
    for at in bytes.indices {
      for byte in Array(#",":}] nx0-\"#.utf8) {
        var changed = bytes
        changed[at] = byte
        _ = parse(changed)
      }
    }
  }
}
