import Testing

@testable import NotifJSON

@Suite struct ByteBufferTests {
  @Test(arguments: [
    (Int64(0), "0"), (7, "7"), (-5, "-5"), (10, "10"), (1_234_567_890, "1234567890"),
    (Int64.max, "9223372036854775807"), (Int64.min, "-9223372036854775808"),
  ])
  func appendsDecimalIntegers(_ value: Int64, _ text: String) {
    var buffer = ByteBuffer()
    buffer.append(decimal: value)
    #expect(buffer.text == text)
    // And through a writer, on a buffer with no room to spare.
    var written = ByteBuffer(capacity: 1)
    written.write { $0.append(decimal: value) }
    #expect(written.text == text)
  }

  @Test func appendsZeroPaddedDigitsAndHex() {
    var buffer = ByteBuffer(capacity: 1)
    buffer.append(digits: 7, width: 4)
    buffer.append(UInt8(ascii: " "))
    buffer.append(digits: 2024, width: 4)
    buffer.append(UInt8(ascii: " "))
    buffer.append(hex: 0xDEAD_BEEF)
    buffer.append(UInt8(ascii: " "))
    buffer.append(hex: UInt64.max)
    #expect(buffer.text == "0007 2024 00000000deadbeef ffffffffffffffff")
  }

  @Test func appendsHexAsTheStandardLibraryWritesIt() {
    var values: [UInt64] = [0, 1, 9, 10, 15, 16, 0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210]
    for shift in 0..<64 { values.append(1 << UInt64(shift)) }
    var spread: UInt64 = 1  // a fixed sequence that reaches every digit in every place
    for _ in 0..<1000 {
      spread = spread &* 0x9E37_79B9_7F4A_7C15 &+ 0x632B_E59B_D9B4_E019
      values.append(spread)
    }
    for value in values {
      var buffer = ByteBuffer(capacity: 1)
      buffer.append(UInt8(ascii: "<"))
      buffer.append(hex: value)
      buffer.append(UInt8(ascii: ">"))
      let digits = String(value, radix: 16)
      let expected = "<" + String(repeating: "0", count: 16 - digits.count) + digits + ">"
      #expect(buffer.text == expected)
    }
  }

  @Test func growsPastItsCapacityAndKeepsItsBytes() {
    var buffer = ByteBuffer(capacity: 1)
    let line = Array("0123456789".utf8)
    for _ in 0..<1000 { line.withUnsafeBytes { buffer.append($0) } }
    #expect(buffer.count == 10_000)
    #expect(buffer.bytes == Array(repeating: line, count: 1000).flatMap { $0 })
  }

  @Test func copiesAreIndependentValues() {
    var first = ByteBuffer()
    first.append(utf8: "abc")
    var second = first
    second.append(utf8: "def")
    first.append("!")
    #expect(first.text == "abc!")
    #expect(second.text == "abcdef")
  }

  @Test func aWriterAppendsAsTheBufferDoesAndGrowsIt() {
    var appended = ByteBuffer(capacity: 1)
    var written = ByteBuffer(capacity: 1)
    let line = Array("0123456789".utf8)
    for round in 0..<300 {
      let value = Int64(round) * 7_919 - 1_000_000
      appended.append(UInt8(ascii: "<"))
      line.withUnsafeBytes { appended.append($0) }
      appended.append(decimal: value)
      appended.append(hex: UInt64(bitPattern: value))
      appended.append("/")
      written.write { writer in
        writer.append(UInt8(ascii: "<"))
        line.withUnsafeBytes { writer.append($0) }
        writer.append(decimal: value)
        writer.append(hex: UInt64(bitPattern: value))
        writer.append("/")
      }
    }
    #expect(written.count == appended.count)
    #expect(written.bytes == appended.bytes)
  }

  @Test func aWriterLeavesCopiesOfTheBufferAlone() {
    var buffer = ByteBuffer(capacity: 64)
    buffer.append(utf8: "abcxyz")
    let copy = buffer
    // Room within the capacity, over bytes the copy still holds.
    buffer.truncate(to: 3)
    let count = buffer.write { writer -> Int in
      writer.append("def")
      var other = ByteBuffer()
      other.append(utf8: "!")
      writer.append(other)
      return writer.count
    }
    #expect(count == 7)
    #expect(buffer.text == "abcdef!")
    #expect(copy.text == "abcxyz")
  }

  @Test func aWriterThatThrowsKeepsWhatItWrote() {
    struct Stop: Error {}
    var buffer = ByteBuffer(capacity: 2)
    #expect(throws: Stop.self) {
      try buffer.write { writer throws(Stop) in
        writer.append("written")
        throw Stop()
      }
    }
    #expect(buffer.text == "written")
  }

  @Test func removeAllAndTruncateKeepTheRest() {
    var buffer = ByteBuffer([UInt8]("hello world".utf8))
    buffer.truncate(to: 5)
    #expect(buffer.text == "hello")
    var other = ByteBuffer()
    other.append(utf8: "!")
    buffer.append(other)
    #expect(buffer.text == "hello!")
    buffer.removeAll()
    #expect(buffer.count == 0)
    #expect(buffer.text == "")
  }

  @Test func textReplacesInvalidUTF8() {
    let buffer = ByteBuffer([0x61, 0xFF, 0x62])
    #expect(buffer.text == "a\u{FFFD}b")
  }
}
