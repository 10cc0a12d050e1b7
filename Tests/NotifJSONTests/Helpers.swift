import TestSupport
import Testing

@testable import NotifJSON

// Small helpers shared by the unit tests of NotifModel: parse a text with a fresh parser and
// show the outcome as plain values that `#expect` can compare.

/// The outcome of parsing a text, with the compact form of the value when it is complete.
struct Parsed: Equatable {
  var result: JSONParseResult
  var compact: String?
  var isCompact: Bool
}

/// The outermost keys the tests' parsers with expected keys expect (`JSONParser.expectRootKeys`):
/// the first keys of many tests' objects, and the empty key.
let testExpectedKeys = ["a", "b", "", "id", "aps", "c"].map { Array($0.utf8) }

/// Parses `bytes` with a new parser on each path (`JSONScan`): the vector pass, the
/// automatic choice (for a first text, sixteen bytes a step on x86-64) and the scalar
/// reference, and each again expecting `testExpectedKeys`; expects the same outcome and tape
/// from each, so every test that parses through here checks every path.
func parse(_ bytes: [UInt8], isFinal: Bool = true, maxDepth: Int = JSONParser.defaultMaxDepth)
  -> Parsed
{
  let (scalar, scalarTape) = parse(bytes, isFinal: isFinal, maxDepth: maxDepth, scan: .scalar)
  for scan in [JSONScan.vector, .automatic] {
    let (other, otherTape) = parse(bytes, isFinal: isFinal, maxDepth: maxDepth, scan: scan)
    #expect(other == scalar, "the \(scan) and scalar paths differ")
    #expect(otherTape == scalarTape, "the \(scan) and scalar paths' tapes differ")
  }
  for scan in [JSONScan.scalar, .vector, .automatic] {
    let (expecting, expectingTape) = parse(
      bytes, isFinal: isFinal, maxDepth: maxDepth, scan: scan, expecting: testExpectedKeys)
    #expect(expecting == scalar, "the \(scan) path expecting keys and not differ")
    #expect(expectingTape == scalarTape, "the \(scan) path expecting keys: the tapes differ")
  }
  return scalar
}

/// Parses `bytes` with a new parser on the path `scan` chooses, expecting `expecting` as the
/// outermost keys if not empty; the outcome and the tape, each token as its fields.
func parse(
  _ bytes: [UInt8], isFinal: Bool, maxDepth: Int, scan: JSONScan, expecting: [[UInt8]] = []
) -> (Parsed, [[Int]]) {
  var parser = JSONParser(maxDepth: maxDepth, scan: scan)
  if !expecting.isEmpty { parser.expectRootKeys(expecting) }
  return bytes.withUnsafeBytes { raw in
    let result = parser.parse(raw, isFinal: isFinal)
    guard case .complete = result else {
      return (Parsed(result: result, compact: nil, isCompact: false), [])
    }
    var out = ByteBuffer()
    let tape = parser.withView(over: raw) { view in
      JSONWriter.writeCompact(view, 0, into: &out)
      return view.tokens.map { token in
        [
          Int(token.kind.rawValue), token.flag ? 1 : 0, Int(token.start), Int(token.end),
          Int(token.next), Int(token.count),
        ]
      }
    }
    return (Parsed(result: result, compact: out.text, isCompact: parser.isCompact), tape)
  }
}

/// Parses the UTF-8 bytes of `text` with a new parser.
func parse(_ text: String, isFinal: Bool = true, maxDepth: Int = JSONParser.defaultMaxDepth)
  -> Parsed
{
  parse(Array(text.utf8), isFinal: isFinal, maxDepth: maxDepth)
}

/// The error parsing `bytes` fails with, or nil if it does not fail.
func parseError(_ bytes: [UInt8]) -> JSONError? {
  if case .failed(let error) = parse(bytes).result { return error }
  return nil
}

/// The error parsing `text` fails with, or nil if it does not fail.
func parseError(_ text: String) -> JSONError? {
  parseError(Array(text.utf8))
}

/// The compact canonical form of `text`, or nil if it is not one complete JSON text.
func compact(_ text: String) -> String? {
  parse(text).compact
}

/// The byte offset of the first occurrence of `needle` in `text` (the last with `last`).
func byteOffset(of needle: String, in text: String, last: Bool = false) -> Int {
  let haystack = Array(text.utf8)
  let pattern = Array(needle.utf8)
  let starts = Array(0...(haystack.count - pattern.count))
  for start in last ? starts.reversed() : starts
  where Array(haystack[start..<start + pattern.count]) == pattern {
    return start
  }
  return -1
}
