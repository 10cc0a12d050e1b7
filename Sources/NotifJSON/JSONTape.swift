/// The kind of a JSON value on a tape.
public enum JSONKind: UInt8, Sendable {
  case object, array, string, number, bool, null
}

/// One value of a parsed JSON text: where its bytes are and how to skip it.
///
/// A tape lists values in document order. An object is followed by its members, each a string
/// token for the key and then the value; an array by its elements. `next` is the index of the
/// first token after the value and everything inside it, so siblings are one step apart.
public struct JSONToken: Sendable {
  /// The kind of value.
  public var kind: JSONKind
  /// For strings, whether the raw bytes contain a backslash escape; for numbers, whether the
  /// number is an integer (no fraction, no exponent); for booleans, the value.
  public var flag: Bool
  /// The offset of the value's first byte: the quote of a string, the brace of an object.
  public var start: Int32
  /// The offset just past the value's last byte.
  public var end: Int32
  /// The index of the token that follows this value and all it contains.
  public var next: Int32
  /// The number of members of an object or elements of an array; 0 for scalars.
  public var count: Int32
}

/// A read-only window on a parsed JSON text: its tape and the bytes the tape points into.
///
/// Both are borrowed: a view is valid only inside the call that handed it out. Index 0 is the
/// root value. Lookups compare raw key bytes and build no strings.
public struct JSONView {
  /// The tokens, in document order.
  public let tokens: UnsafeBufferPointer<JSONToken>
  /// The bytes of the JSON text the tokens point into.
  public let bytes: UnsafeRawBufferPointer

  /// Creates a view of a tape over the bytes it was parsed from.
  public init(tokens: UnsafeBufferPointer<JSONToken>, bytes: UnsafeRawBufferPointer) {
    self.tokens = tokens
    self.bytes = bytes
  }

  /// The kind of the value at `index`.
  @inlinable public func kind(_ index: Int) -> JSONKind { tokens[index].kind }

  /// The raw bytes of the value at `index`, quotes included for strings.
  @inlinable public func raw(_ index: Int) -> UnsafeRawBufferPointer {
    let token = tokens[index]
    return UnsafeRawBufferPointer(rebasing: bytes[Int(token.start)..<Int(token.end)])
  }

  /// The bytes between the quotes of the string at `index`, escapes not decoded.
  @inlinable public func rawString(_ index: Int) -> UnsafeRawBufferPointer {
    let token = tokens[index]
    return UnsafeRawBufferPointer(rebasing: bytes[Int(token.start) + 1..<Int(token.end) - 1])
  }

  /// Calls `body` with the index of each key and its value of the object at `index`, in order,
  /// until it throws. The error is typed: a closure that says `throws(Problem)` stops the walk
  /// with that very `Problem`.
  ///
  /// - Complexity: O(number of members).
  @inlinable public func forEachMember<E: Error>(
    of index: Int, _ body: (_ key: Int, _ value: Int) throws(E) -> Void
  ) throws(E) {
    var key = index + 1
    for _ in 0..<Int(tokens[index].count) {
      let value = key + 1
      try body(key, value)
      key = Int(tokens[value].next)
    }
  }

  /// Calls `body` with the index of each element of the array at `index`, in order, until it
  /// throws (a typed error, as `forEachMember`'s).
  ///
  /// - Complexity: O(number of elements).
  @inlinable public func forEachElement<E: Error>(of index: Int, _ body: (Int) throws(E) -> Void)
    throws(E)
  {
    var element = index + 1
    for _ in 0..<Int(tokens[index].count) {
      try body(element)
      element = Int(tokens[element].next)
    }
  }

  /// Whether the key string at `index` equals `name` after unescaping.
  public func keyEquals(_ index: Int, _ name: StaticString) -> Bool {
    let wanted = UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
    if tokens[index].flag {
      return string(index).utf8.elementsEqual(wanted)
    }
    let token = tokens[index]
    let length = Int(token.end - token.start) - 2
    guard length == wanted.count, let base = bytes.baseAddress, let name = wanted.baseAddress else {
      return false
    }
    return memcmp(base + Int(token.start) + 1, name, length) == 0
  }

  /// The value of member `name` of the object at `index`, or nil if it has none or is no object.
  ///
  /// - Complexity: O(number of members).
  public func member(_ index: Int, _ name: StaticString) -> Int? {
    guard tokens[index].kind == .object else { return nil }
    var key = index + 1
    for _ in 0..<Int(tokens[index].count) {
      if keyEquals(key, name) { return key + 1 }
      key = Int(tokens[key + 1].next)
    }
    return nil
  }

  /// Whether the key string at `index` equals `name`, UTF-8 bytes, after unescaping: for keys
  /// made once from their definitions (`RecordField.key`), where a `StaticString` cannot be.
  public func keyEquals(_ index: Int, bytes name: [UInt8]) -> Bool {
    if tokens[index].flag {
      return string(index).utf8.elementsEqual(name)
    }
    let raw = rawString(index)
    guard raw.count == name.count, let base = raw.baseAddress else {
      return raw.count == name.count
    }
    return name.withUnsafeBytes { memcmp(base, $0.baseAddress ?? base, raw.count) == 0 }
  }

  /// The value of member `name` (UTF-8 bytes) of the object at `index`, or nil if it has none
  /// or is no object.
  ///
  /// - Complexity: O(number of members).
  public func member(_ index: Int, bytes name: [UInt8]) -> Int? {
    guard tokens[index].kind == .object else { return nil }
    var key = index + 1
    for _ in 0..<Int(tokens[index].count) {
      if keyEquals(key, bytes: name) { return key + 1 }
      key = Int(tokens[key + 1].next)
    }
    return nil
  }

  /// The decoded text of the string at `index` (a key or a value).
  public func string(_ index: Int) -> String {
    let raw = rawString(index)
    if !tokens[index].flag {
      return String(decoding: raw, as: UTF8.self)
    }
    var decoded = ByteBuffer(capacity: raw.count)
    JSONEscapes.unescape(raw, into: &decoded)
    return decoded.text
  }

  /// The decoded text of the string at `index` from no more than its first `maxBytes` raw
  /// bytes (escapes as written), cut before an escape or a UTF-8 sequence that would not fit;
  /// `isWhole` says whether that is all of it. For a caller that needs only the start of a
  /// string that may be megabytes long.
  ///
  /// - Complexity: O(min(`maxBytes`, length of the string)).
  public func stringPrefix(_ index: Int, maxBytes: Int) -> (text: String, isWhole: Bool) {
    let raw = rawString(index)
    guard raw.count > maxBytes, let base = raw.baseAddress else { return (string(index), true) }
    var cut = 0
    if tokens[index].flag {
      // Past the escapes that fit whole: `\x`, `\uXXXX`, or a surrogate pair of two.
      while cut < maxBytes {
        guard let hit = memchr(base + cut, Int32(UInt8(ascii: "\\")), maxBytes - cut) else {
          cut = maxBytes
          break
        }
        let at = base.distance(to: UnsafeRawPointer(hit))
        var length = 2
        if raw[at + 1] == UInt8(ascii: "u") {
          let unit = JSONEscapes.hex4(raw, at + 2)
          length = unit >= 0xD800 && unit < 0xDC00 ? 12 : 6
        }
        if at + length > maxBytes {
          cut = at
          break
        }
        cut = at + length
      }
    } else {
      cut = maxBytes
    }
    // Back to the lead byte of a UTF-8 sequence cut in two (an escape's backslash is one).
    while cut > 0 && raw[cut] & 0xC0 == 0x80 { cut -= 1 }
    let prefix = UnsafeRawBufferPointer(rebasing: raw[..<cut])
    guard tokens[index].flag else { return (String(decoding: prefix, as: UTF8.self), false) }
    var decoded = ByteBuffer(capacity: cut)
    JSONEscapes.unescape(prefix, into: &decoded)
    return (decoded.text, false)
  }

  /// The decoded UTF-8 bytes of the string at `index`.
  ///
  /// Compare keys and identifiers by these, never as `String`s: `String`'s `==` and hashing
  /// use canonical equivalence, so `"\u00e9"` and `"e\u0301"`, or `"K"` and `"\u212A"` (Kelvin
  /// sign), would be one key, where JSON (RFC 8259 section 8.3) and Apple's `NSString` compare
  /// code points.
  public func stringBytes(_ index: Int) -> [UInt8] {
    let raw = rawString(index)
    if !tokens[index].flag { return Array(raw) }
    var decoded = ByteBuffer(capacity: raw.count)
    JSONEscapes.unescape(raw, into: &decoded)
    return decoded.bytes
  }

  /// The decoded text of the value at `index` if it is a string, else nil.
  public func stringValue(_ index: Int) -> String? {
    tokens[index].kind == .string ? string(index) : nil
  }

  /// The value at `index` as an integer, if it is a number with no fraction or exponent that
  /// fits in 64 bits.
  public func integer(_ index: Int) -> Int64? {
    let token = tokens[index]
    guard token.kind == .number, token.flag else { return nil }
    let raw = self.raw(index)
    var value: Int64 = 0
    var negative = false
    for byte in raw {
      if byte == UInt8(ascii: "-") {
        negative = true
        continue
      }
      let digit = Int64(byte &- UInt8(ascii: "0"))
      let (times10, o1) = value.multipliedReportingOverflow(by: 10)
      let (sum, o2) =
        negative
        ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
      if o1 || o2 { return nil }
      value = sum
    }
    return value
  }

  /// The value at `index` as a floating-point number, if it is a number.
  public func double(_ index: Int) -> Double? {
    guard tokens[index].kind == .number else { return nil }
    let raw = self.raw(index)
    if let exact = Self.shortDecimal(raw) { return exact }
    return Double(String(decoding: raw, as: UTF8.self))
  }

  /// A number with no exponent and at most 15 digits, `-12.345` say, read without building a
  /// string: its digits as an integer are exact in a `Double`, and so is the power of ten, so
  /// one division rounds correctly (the fast path of Clinger's algorithm, as strtod takes it).
  /// Nil for any other number.
  static func shortDecimal(_ raw: UnsafeRawBufferPointer) -> Double? {
    var digits: Int64 = 0
    var count = 0
    var fraction = -1  // digits after the point, once one is seen
    var negative = false
    for byte in raw {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        digits = digits * 10 + Int64(byte &- UInt8(ascii: "0"))
        count += 1
        if fraction >= 0 { fraction += 1 }
        if count > 15 { return nil }
      case UInt8(ascii: "-"): negative = true
      case UInt8(ascii: "."): fraction = 0
      default: return nil  // an exponent
      }
    }
    let value = Double(digits) / powersOfTen[max(fraction, 0)]
    return negative ? -value : value
  }

  private static let powersOfTen: [Double] = (0...15).map { exponent in
    var power = 1.0
    for _ in 0..<exponent { power *= 10 }
    return power
  }

  /// The value at `index` if it is `true` or `false`.
  public func bool(_ index: Int) -> Bool? {
    tokens[index].kind == .bool ? tokens[index].flag : nil
  }
}
