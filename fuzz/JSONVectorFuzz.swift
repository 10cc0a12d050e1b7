// Fuzz target `json-vector` (see fuzz/Fuzz.swift): the vector first pass of NotifJSON
// (CNotifSIMD) against the scalar path, which is the reference.
//
// Properties checked on every input (a violation traps with `fatalError`, which libFuzzer
// reports as a crash and saves the input):
//   (a) stage 1: every vector unit this CPU has classifies the input's 64-byte blocks (the
//       last padded with the input's last byte, so that strings and escapes run into it) as
//       the byte-by-byte reference does: stops, unescaped quotes, bytes in strings,
//       structurals, white space and line ends, and the carry left after the last block;
//       classified in one call or block by block in pieces, so the carry between calls is
//       checked too; `notif_simd_stops` gives the same stops;
//   (b) `JSONParser` with `.vector`, and with `.automatic` (sixteen bytes a step on x86-64,
//       the vector pass after a long text), gives the same answer as with `.scalar`
//       (`.complete` at the same end, `.incomplete`, or the same error: code, offset and
//       message), the same tape and the same `isCompact`, on the whole input and on its
//       suffixes (the vector pass's blocks fall elsewhere), final or not, and on prefixes with
//       more to come;
//       On each path, a parser expecting the outermost keys `fuzzExpectedKeys`
//       (`expectRootKeys`) gives the answer and tape of the scalar one too, and
//       `expectedKeysSeen` counts exactly the leading members written `"key":` with the key
//       expected at their place, and `expectedValueIndices` holds where their values are;
//       `expectedKeysComplete` holds exactly when an outermost object has every key written
//       `"key":` as an expected one, each a later one than the one before, and
//       then `expectedKeyValues.all` holds where each expected key's value is, -1 if none;
//   (c) `RecordReader` over the input gives the same events on every path (the same errors at
//       the same lines and columns), records with the same compact output, and so does one
//       expecting `fuzzExpectedKeys` (`RecordReader.expectRootKeys`);
//   (d) `RecordLineParser` gives every line the same answer on every path, and finds each
//       record's fields where a `RecordFieldLocator` finds them on a parser expecting nothing;
//   (e) `notif_simd_find_pair` finds, on every vector unit, from every offset, the first pair
//       the scalar reference finds, for the pairs notif-expire looks for (`ps`, `\u`) and for
//       a pair made of the input's first two bytes.

import CNotifSIMD

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

func fuzzJSONVector(_ input: UnsafeRawBufferPointer) {
  checkStageOne(input)
  checkPairs(input)
  var vector = JSONParser(scan: .vector)
  var automatic = JSONParser(scan: .automatic)
  var scalar = JSONParser(scan: .scalar)
  var expecting = JSONParser(scan: .automatic)
  var expectingVector = JSONParser(scan: .vector)
  var expectingScalar = JSONParser(scan: .scalar)
  expecting.expectRootKeys(fuzzExpectedKeys)
  expectingVector.expectRootKeys(fuzzExpectedKeys)
  expectingScalar.expectRootKeys(fuzzExpectedKeys)
  let size = input.count
  var starts = [0, 1, 7, 63, 64, 65]
  if size > 0 { starts.append(Int(input[0]) % size) }
  for start in starts where start <= size {
    let text = UnsafeRawBufferPointer(rebasing: input[start...])
    for isFinal in [true, false] {
      checkParsersAgree(text, isFinal: isFinal, &vector, &scalar)
      checkParsersAgree(text, isFinal: isFinal, &automatic, &scalar, "automatic")
      checkParsersAgree(text, isFinal: isFinal, &expecting, &scalar, "expecting")
      checkParsersAgree(text, isFinal: isFinal, &expectingVector, &scalar, "expecting, vector")
      checkParsersAgree(text, isFinal: isFinal, &expectingScalar, &scalar, "expecting, scalar")
      checkExpectedKeysSeen(text, &expecting)
      checkExpectedKeysSeen(text, &expectingVector)
      checkExpectedKeysSeen(text, &expectingScalar)
    }
  }
  var state = UInt64(size) &* 0x9E37_79B9_7F4A_7C15
  for byte in input.prefix(16) { state = (state ^ UInt64(byte)) &* 0x100_0000_01B3 }
  for _ in 0..<8 where size > 0 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    let length = Int(state >> 33) % (size + 1)
    let prefix = UnsafeRawBufferPointer(rebasing: input[0..<length])
    for isFinal in [false, true] {
      checkParsersAgree(prefix, isFinal: isFinal, &vector, &scalar)
      checkParsersAgree(prefix, isFinal: isFinal, &automatic, &scalar, "automatic")
      checkParsersAgree(prefix, isFinal: isFinal, &expecting, &scalar, "expecting")
    }
  }
  checkRecordReadersAgree(input, maxRecordBytes: 4096)
  checkRecordReadersAgree(input, maxRecordBytes: 1 + Int(size > 0 ? input[size - 1] : 0) % 48)
  checkRecordLinesAgree(input)
}

// MARK: - (e) pairs

func checkPairs(_ input: UnsafeRawBufferPointer) {
  guard let base = input.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
  let count = input.count
  let own = count >= 2 ? (input[0], input[1]) : (UInt8(0), UInt8(0))
  for (a, b) in [((UInt8(0x70), UInt8(0x73)), (UInt8(0x5C), UInt8(0x75))), (own, own)] {
    for from in 0..<count {
      let reference = notif_simd_find_pair(
        base, count, from, a.0, a.1, b.0, b.1, Int32(NOTIF_SIMD_SCALAR))
      for level in vectorLevels {
        let found = notif_simd_find_pair(base, count, from, a.0, a.1, b.0, b.1, level)
        require(
          found == reference, "level \(level), from \(from): pair at \(found), not \(reference)")
      }
    }
  }
}

// MARK: - (a) stage 1

/// The vector units this CPU can run, besides the scalar reference.
let vectorLevels: [Int32] = [NOTIF_SIMD_SSE2, NOTIF_SIMD_AVX2, NOTIF_SIMD_NEON].map {
  Int32($0)
}.filter { notif_simd_level_supported($0) != 0 }

func checkStageOne(_ input: UnsafeRawBufferPointer) {
  let blocks = max((input.count + 63) / 64, 1)
  var padded = [UInt8](repeating: input.last ?? 0, count: blocks * 64)
  for (k, byte) in input.enumerated() { padded[k] = byte }
  padded.withUnsafeBufferPointer { bytes in
    guard let p = bytes.baseAddress else { return }
    let reference = classify(p, blocks, level: Int32(NOTIF_SIMD_SCALAR), pieces: [blocks])
    var pieces: [Int] = []
    var left = blocks
    var k = 0
    while left > 0 {
      let piece = min(left, 1 + Int(padded[k % padded.count]) % 3)
      pieces.append(piece)
      left -= piece
      k += 1
    }
    for level in vectorLevels {
      for split in [[blocks], pieces] {
        let got = classify(p, blocks, level: level, pieces: split)
        for b in 0..<blocks {
          let (x, y) = (reference.blocks[b], got.blocks[b])
          require(
            x.stops == y.stops && x.quotes == y.quotes && x.in_string == y.in_string
              && x.structurals == y.structurals && x.whitespace == y.whitespace
              && x.line_ends == y.line_ends,
            "level \(level), block \(b) of \(blocks), pieces \(split): \(y) vs reference \(x)")
        }
        require(
          reference.carry.in_string == got.carry.in_string
            && reference.carry.escaped == got.carry.escaped,
          "level \(level): carry \(got.carry) vs reference \(reference.carry)")
      }
      var stops = [UInt64](repeating: 0, count: blocks)
      notif_simd_stops(p, blocks, &stops, level)
      for b in 0..<blocks {
        require(stops[b] == reference.blocks[b].stops, "level \(level): stops of block \(b)")
      }
    }
  }
}

func classify(_ p: UnsafePointer<UInt8>, _ blocks: Int, level: Int32, pieces: [Int])
  -> (blocks: [notif_simd_block], carry: notif_simd_carry)
{
  var out = [notif_simd_block](repeating: notif_simd_block(), count: blocks)
  var carry = notif_simd_carry()
  var at = 0
  out.withUnsafeMutableBufferPointer { out in
    guard let base = out.baseAddress else { return }
    for piece in pieces {
      notif_simd_classify(p + at * 64, piece, base + at, &carry, level)
      at += piece
    }
  }
  return (out, carry)
}

// MARK: - (b) the parser

func checkParsersAgree(
  _ text: UnsafeRawBufferPointer, isFinal: Bool, _ vector: inout JSONParser,
  _ scalar: inout JSONParser, _ path: String = "vector"
) {
  let a = vector.parse(text, isFinal: isFinal)
  let b = scalar.parse(text, isFinal: isFinal)
  require(a == b, "\(text.count) bytes, final \(isFinal): \(path) \(a), scalar \(b)")
  guard case .complete = a else { return }
  require(vector.isCompact == scalar.isCompact, "isCompact differs (\(path))")
  let tokens = vector.withView(over: text) { Array($0.tokens) }
  scalar.withView(over: text) { view in
    require(tokens.count == view.tokens.count, "tapes of \(tokens.count) and \(view.tokens.count)")
    for (k, (x, y)) in zip(tokens, view.tokens).enumerated() {
      require(
        x.kind == y.kind && x.flag == y.flag && x.start == y.start && x.end == y.end
          && x.next == y.next && x.count == y.count,
        "token \(k): \(path) \(x), scalar \(y)")
    }
  }
}

/// The outermost keys the `expecting` parser expects: short ones the dictionary makes likely,
/// the empty key, and a record's first.
let fuzzExpectedKeys = ["a", "", "id", "app", "aps", "b"].map { Array($0.utf8) }

/// After the last parse of `text` by `parser` (expecting `fuzzExpectedKeys`), if complete:
/// `expectedKeysSeen` is the number of leading members of an outermost object whose key is
/// written exactly as the one expected at its place, with the colon right after it; and
/// `expectedValueIndices` holds the tape index of each of their values.
func checkExpectedKeysSeen(_ text: UnsafeRawBufferPointer, _ parser: inout JSONParser) {
  guard case .complete = parser.parse(text, isFinal: true) else { return }
  let values = parser.withView(over: text) { view -> [Int32] in
    guard view.kind(0) == .object else { return [] }
    var key = 1
    var values: [Int32] = []
    while values.count < Int(view.tokens[0].count) && values.count < fuzzExpectedKeys.count {
      let raw = Array(view.raw(key))
      let end = Int(view.tokens[key].end)
      guard raw == [0x22] + fuzzExpectedKeys[values.count] + [0x22], end < text.count,
        text[end] == 0x3A
      else { break }
      values.append(Int32(key + 1))
      key = Int(view.tokens[key + 1].next)
    }
    return values
  }
  require(
    parser.expectedKeysSeen == values.count,
    "expectedKeysSeen \(parser.expectedKeysSeen), \(values.count) members have the expected keys")
  require(
    Array(parser.expectedValueIndices) == values,
    "expectedValueIndices \(Array(parser.expectedValueIndices)), values at \(values)")
  // Every key an expected one, each later than the one before: where each key's value is.
  let complete = parser.withView(over: text) { view -> [Int32]? in
    guard view.kind(0) == .object else { return nil }
    var map = [Int32](repeating: -1, count: fuzzExpectedKeys.count)
    var next = 0
    var key = 1
    for _ in 0..<Int(view.tokens[0].count) {
      let raw = Array(view.raw(key))
      let end = Int(view.tokens[key].end)
      guard end < text.count, text[end] == 0x3A,
        let found = (next..<fuzzExpectedKeys.count).first(where: {
          raw == [0x22] + fuzzExpectedKeys[$0] + [0x22]
        })
      else { return nil }
      map[found] = Int32(key + 1)
      next = found + 1
      key = Int(view.tokens[key + 1].next)
    }
    return map
  }
  require(
    parser.expectedKeysComplete == (complete != nil),
    "expectedKeysComplete \(parser.expectedKeysComplete), keys in expected order: \(complete != nil)"
  )
  let all = parser.expectedKeyValues.all.map(Array.init)
  require(
    all == complete,
    "expectedKeyValues.all \(String(describing: all)), values at \(String(describing: complete))")
}

// MARK: - (c) RecordReader

/// What a reader gave, event by event: a record's compact output and where it is, or a
/// failure as it would be reported.
func readerEvents(
  _ input: UnsafeRawBufferPointer, maxRecordBytes: Int, scan: JSONScan, expecting: Bool = false
) -> [String] {
  var reader = RecordReader(
    borrowing: input, name: "fuzz", maxRecordBytes: maxRecordBytes, line: 1,
    atStreamStart: true, scan: scan)
  if expecting { reader.expectRootKeys(fuzzExpectedKeys) }
  var events: [String] = []
  while events.count <= input.count + 1 {
    let event: RecordEvent
    do {
      event = try reader.next()
    } catch {
      fail("read failed: \(error)")
    }
    switch event {
    case .end:
      events.append("end \(reader.endedBetweenTexts) \(reader.isSkipping)")
      return events
    case .idle:
      fail("a reader of borrowed bytes was idle")
    case .record:
      var compact = ByteBuffer()
      let length = reader.withRecord { view -> Int in
        JSONWriter.writeCompact(view, 0, into: &compact)
        return view.bytes.count
      }
      let at = reader.position(ofRecordOffset: length)
      events.append(
        "record line \(reader.recordLine) end \(at) compact \(reader.recordIsCompact) "
          + compact.text)
    case .failure(let error, let line, let column):
      events.append("failure \(line):\(column) \(error.code) \(error.offset) \(error.message)")
    }
  }
  fail("RecordReader gave more events than bytes")
}

func checkRecordReadersAgree(_ input: UnsafeRawBufferPointer, maxRecordBytes: Int) {
  let b = readerEvents(input, maxRecordBytes: maxRecordBytes, scan: .scalar)
  for scan in [JSONScan.vector, .automatic] {
    let a = readerEvents(input, maxRecordBytes: maxRecordBytes, scan: scan)
    require(a == b, "RecordReader (limit \(maxRecordBytes)): \(scan) \(a), scalar \(b)")
  }
  for scan in [JSONScan.scalar, .automatic] {
    let a = readerEvents(input, maxRecordBytes: maxRecordBytes, scan: scan, expecting: true)
    require(
      a == b, "RecordReader (limit \(maxRecordBytes)) expecting keys: \(scan) \(a), scalar \(b)")
  }
}

// MARK: - (d) record lines

func checkRecordLinesAgree(_ input: UnsafeRawBufferPointer) {
  var vector = RecordLineParser(scan: .vector)
  var automatic = RecordLineParser(scan: .automatic)
  var scalar = RecordLineParser(scan: .scalar)
  var start = 0
  while start <= input.count {
    let stop = input[start...].firstIndex(of: 0x0A) ?? input.count
    let line = UnsafeRawBufferPointer(rebasing: input[start..<stop])
    let b = scalar.parse(line)
    let a = vector.parse(line)
    require(a == b, "line at \(start): vector \(a), scalar \(b)")
    let c = automatic.parse(line)
    require(c == b, "line at \(start): automatic \(c), scalar \(b)")
    if b == .record { checkRecordFields(line, automatic) }
    start = stop + 1
  }
}

/// The fields `lines` found in the record it parsed last, against those a `RecordFieldLocator`
/// finds, told nothing, on a parser that expects no keys.
func checkRecordFields(_ line: UnsafeRawBufferPointer, _ lines: borrowing RecordLineParser) {
  let text = UnsafeRawBufferPointer(rebasing: line[lines.textRange])
  var parser = JSONParser()
  parser.checksRootKeys = false
  guard case .complete = parser.parse(text, isFinal: true) else {
    fail("a record line's text does not parse alone")
  }
  let locator = RecordFieldLocator()
  _ = parser.withView(over: text) { view in locator.locate(view) }
  lines.withRecord { record in
    for field in RecordField.allCases {
      require(
        record.index(field) == locator.index(field),
        "\(field): at \(String(describing: record.index(field))), plainly at \(String(describing: locator.index(field)))"
      )
    }
  }
}
