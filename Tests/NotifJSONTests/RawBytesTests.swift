import Testing

@testable import NotifJSON

@Suite struct RawBytesTests {
  @Test func comparesExactlyTheLengthGiven() {
    let a = Array("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ".utf8)
    for length in 0...40 {
      // The same first `length` bytes and different bytes after them: equal.
      var b = a
      for k in length..<b.count { b[k] = 0x2E }
      a.withUnsafeBytes { x in
        b.withUnsafeBytes { y in
          #expect(RawBytes.equal(x.baseAddress!, y.baseAddress!, length))
        }
      }
      // One byte different anywhere within the length: not equal.
      for position in 0..<length {
        var c = a
        c[position] ^= 0x01
        a.withUnsafeBytes { x in
          c.withUnsafeBytes { y in
            #expect(
              !RawBytes.equal(x.baseAddress!, y.baseAddress!, length),
              "length \(length), position \(position)")
          }
        }
      }
    }
  }
}
