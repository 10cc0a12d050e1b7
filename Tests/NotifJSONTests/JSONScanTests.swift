import CNotifSIMD
import TestSupport
import Testing

@testable import NotifJSON

/// The vector pass (`JSONScan`, CNotifSIMD) against the scalar path. Every test that parses
/// through `parse(_:)` (Helpers.swift) compares the two as well; these reach what short texts
/// do not: strings that cross 64-byte blocks and the window of blocks, escapes at the edges of
/// blocks, a text that ends inside a block. The fuzz target `json-vector` checks the rest.
struct JSONScanTests {
  static let levels: [Int32] = [NOTIF_SIMD_SSE2, NOTIF_SIMD_AVX2, NOTIF_SIMD_NEON].map {
    Int32($0)
  }.filter { notif_simd_level_supported($0) != 0 }

  /// Every unit finds the first pair where a byte-by-byte search does, from every offset of
  /// texts of every length to past two AVX2 vectors, so that matches fall on the edges of the
  /// 32- and 16-byte steps and in the bytes after the last: bytes drawn near the pair's (one
  /// off, a pair's first byte twice, the second alone) and `RawBytes.firstPair` on each path.
  @Test func everyUnitFindsTheFirstPairWhereAByteSearchDoes() {
    let alphabet: [UInt8] = [
      0x00, 0x5B, 0x5C, 0x5D, 0x6F, 0x70, 0x71, 0x73, 0x74, 0x75, 0x80, 0xFF,
    ]
    var random = SplitMix(seed: 0x70_73)
    for length in 0..<80 {
      for _ in 0..<20 {
        let bytes = (0..<length).map { _ in random.pick(alphabet) }
        var first = [Int](repeating: length, count: length + 1)
        for i in stride(from: length - 2, through: 0, by: -1) {
          let pair =
            (bytes[i] == 0x70 && bytes[i + 1] == 0x73) || (bytes[i] == 0x5C && bytes[i + 1] == 0x75)
          first[i] = pair ? i : first[i + 1]
        }
        bytes.withUnsafeBufferPointer { raw in
          guard let p = raw.baseAddress else { return }
          for from in 0..<length {
            for level in [Int32(NOTIF_SIMD_SCALAR)] + Self.levels {
              let found = notif_simd_find_pair(p, length, from, 0x70, 0x73, 0x5C, 0x75, level)
              #expect(found == first[from], "level \(level), from \(from): \(bytes)")
            }
            for scan in [JSONScan.scalar, .automatic] {
              let found = RawBytes.firstPair(
                (0x70, 0x73), (0x5C, 0x75), in: UnsafeRawPointer(p), count: length, from: from,
                scan: scan)
              #expect(found == (first[from] < length ? first[from] : nil), "\(scan), from \(from)")
            }
          }
        }
      }
    }
  }

  static func classify(_ bytes: [UInt8], level: Int32, piece: Int) -> [[UInt64]] {
    let blocks = bytes.count / 64
    var out = [notif_simd_block](repeating: notif_simd_block(), count: blocks)
    var carry = notif_simd_carry()
    bytes.withUnsafeBufferPointer { p in
      out.withUnsafeMutableBufferPointer { out in
        guard let p = p.baseAddress, let base = out.baseAddress else { return }
        var at = 0
        while at < blocks {
          let count = min(piece, blocks - at)
          notif_simd_classify(p + at * 64, count, base + at, &carry, level)
          at += count
        }
      }
    }
    return out.map {
      [$0.stops, $0.quotes, $0.in_string, $0.structurals, $0.whitespace, $0.line_ends]
    }
      + [[carry.in_string, carry.escaped]]
  }

  @Test(arguments: 1...40)
  func everyUnitClassifiesBlocksAsTheScalarReferenceDoes(backslashes: Int) {
    // A run of backslashes that ends at and around block edges, before a quote.
    var bytes = Array(#"{"a":"x","#.utf8)
    bytes += Array(repeating: UInt8(ascii: " "), count: 64 - bytes.count - backslashes % 64)
    bytes += [UInt8(ascii: "\"")] + Array(repeating: UInt8(ascii: "\\"), count: backslashes)
    bytes += Array(#""],"b":[1,2]}"#.utf8) + [0x0A, 0xE2, 0x9D, 0xA4, 0x09, 0x01]
    while bytes.count % 64 != 0 { bytes.append(UInt8(ascii: "\"")) }
    let reference = Self.classify(bytes, level: Int32(NOTIF_SIMD_SCALAR), piece: 64)
    for level in Self.levels {
      #expect(Self.classify(bytes, level: level, piece: 64) == reference, "level \(level)")
      #expect(Self.classify(bytes, level: level, piece: 1) == reference, "level \(level), 1 a call")
    }
  }

  @Test(arguments: [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 200, 300, 4200])
  func longStringsReadTheSameOnBothPaths(length: Int) {
    for offset in [0, 1, 9, 62] {
      let pad = String(repeating: " ", count: offset)
      let body = String(String(repeating: "abcdefgh", count: length / 8 + 1).prefix(length))
      for tail in ["", "é", "\\n", "\\u00e9", "\u{1}", "\u{80}"] {
        let string: String = "\"" + body + tail
        // White space first, so that the string starts at another place in a block.
        let texts: [String] = [
          "[" + pad + string + "\"]", "{" + pad + "\"k\":" + string + "x\",\"j\":1}",
          "[" + pad + string, "[" + pad + "\"" + body + "\\",
        ]
        for text in texts {
          _ = parse(text)
          _ = parse(text, isFinal: false)
        }
      }
    }
  }

  @Test func automaticTakesTheVectorPassAfterALongTextAndReadsAlike() throws {
    let long = "{\"body\":\"" + String(repeating: "long text ", count: 300) + "\"}"
    let lines = [long, "{\"a\":\"short\"}", "{\"b\":\"bad \u{1} text\"}", long, "[1,2"]
    let input = Array((lines.joined(separator: "\n") + "\n").utf8)
    func events(_ scan: JSONScan) -> [String] {
      input.withUnsafeBytes { bytes in
        var reader = RecordReader(
          borrowing: bytes, name: "t", maxRecordBytes: 1 << 20, line: 1, atStreamStart: true,
          scan: scan)
        var events: [String] = []
        while let event = try? reader.next(), event != .end {
          var out = ByteBuffer()
          if event == .record { reader.withRecord { JSONWriter.writeCompact($0, 0, into: &out) } }
          events.append("\(event) \(out.text)")
        }
        return events
      }
    }
    let scalar = events(.scalar)
    #expect(scalar.count == 5)
    #expect(events(.automatic) == scalar)
    #expect(events(.vector) == scalar)
  }
}
