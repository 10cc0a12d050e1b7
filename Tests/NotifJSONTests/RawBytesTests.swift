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

@Suite struct PackedKeysTests {
  /// Keys of every length from 0 to 30, and pairs that differ only in their last byte or in
  /// their length: each is found as itself and as no other.
  @Test func eachKeyIsSpelledByItselfAlone() {
    let letters = Array("abcdefghijklmnopqrstuvwxyz0123".utf8)
    var keys = (0...30).map { Array(letters.prefix($0)) }
    keys += (1...24).map { Array(letters.prefix($0 - 1)) + [0x2E] }
    let packed = PackedKeys(keys)
    #expect(packed.count == keys.count)
    for (i, key) in keys.enumerated() {
      #expect(packed.length(i) == key.count)
      #expect(Array(UnsafeRawBufferPointer(start: packed.start(i), count: packed.length(i))) == key)
      key.withUnsafeBytes { raw in
        for j in keys.indices {
          #expect(packed.spells(j, raw) == (keys[j] == key), "key \(i) against key \(j)")
        }
        #expect(packed.first(spelled: raw) == keys.firstIndex(of: key))
      }
    }
    let unknown = Array("abcdefghijklmnopqrstuvwxyz01234".utf8)
    unknown.withUnsafeBytes { #expect(packed.first(spelled: $0) == nil) }
  }

  @Test func noKeysFindNothing() {
    let packed = PackedKeys([])
    #expect(packed.count == 0)
    Array("a".utf8).withUnsafeBytes { #expect(packed.first(spelled: $0) == nil) }
    [UInt8]().withUnsafeBytes { #expect(packed.first(spelled: $0) == nil) }
  }
}
