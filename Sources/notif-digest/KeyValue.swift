import NotifJSON

/// The values of `--key`, written in one canonical form, so that two values that are equal as
/// JSON are the same bytes: what a key is compared by, what the digest object's `key` shows,
/// and what its `digest_id` hashes.
///
/// - Strings: decoded, then written as `JSONEscapes` writes them (only `"`, `\` and the
///   controls escaped), so `"\u0061"` and `"a"` are one value.
/// - Numbers: by their exact decimal value, never through `Double`: see `writeNumber`.
/// - Objects: their members in the order of their keys' decoded UTF-8 bytes (that is, of their
///   code points), each value canonical; arrays: their elements in order, each canonical.
/// - `true`, `false`, `null` as they are.
///
/// A value already written this way (compact, its strings' escapes canonical, its numbers as
/// `writeNumber` writes them, its objects' members in order) comes out as the same bytes: the
/// keys and ids of such digests are those they had before values were compared as JSON.
enum KeyValue {
  /// Appends the value at `index` of `view`, canonical.
  ///
  /// - Complexity: O(n log n) in the members of its largest object, else O(size of the value).
  static func write(_ view: JSONView, _ index: Int, into out: inout ByteBuffer) {
    let token = view.tokens[index]
    switch token.kind {
    case .object:
      var members: [(key: [UInt8], index: Int)] = []
      members.reserveCapacity(Int(token.count))
      view.forEachMember(of: index) { key, _ in members.append((view.stringBytes(key), key)) }
      // Keys are distinct after unescaping (the parser refuses a key twice): the order is total.
      members.sort { $0.key.lexicographicallyPrecedes($1.key) }
      out.append(UInt8(ascii: "{"))
      for (position, member) in members.enumerated() {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        out.append(UInt8(ascii: "\""))
        member.key.withUnsafeBytes { JSONEscapes.appendEscaped($0, into: &out) }
        out.append("\":")
        write(view, member.index + 1, into: &out)
      }
      out.append(UInt8(ascii: "}"))
    case .array:
      out.append(UInt8(ascii: "["))
      var position = 0
      view.forEachElement(of: index) { element in
        if position > 0 { out.append(UInt8(ascii: ",")) }
        position += 1
        write(view, element, into: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .string:
      JSONEscapes.writeCanonical(raw: view.rawString(index), escaped: token.flag, into: &out)
    case .number:
      writeNumber(view.raw(index), isInteger: token.flag, into: &out)
    case .bool, .null:
      out.append(view.raw(index))
    }
  }

  /// Appends the `key` object of a digest object at `index` (whose members are the `--key`
  /// paths, in the order given): its members in their order, each value canonical.
  static func writeKeyObject(_ view: JSONView, _ index: Int, into out: inout ByteBuffer) {
    out.append(UInt8(ascii: "{"))
    var position = 0
    view.forEachMember(of: index) { key, value in
      if position > 0 { out.append(UInt8(ascii: ",")) }
      position += 1
      JSONEscapes.writeCanonical(
        raw: view.rawString(key), escaped: view.tokens[key].flag, into: &out)
      out.append(UInt8(ascii: ":"))
      write(view, value, into: &out)
    }
    out.append(UInt8(ascii: "}"))
  }

  /// The most digits of an integer written in full; past them, and for fractions below 10^-6,
  /// the exponent form. As ECMAScript writes a number (RFC 8785, JSON Canonicalization).
  static let fullDigits = 21

  /// Appends the JSON number `raw` (valid, as the parser checked it) canonical: its exact
  /// decimal value, in the layout of ECMAScript's `Number.prototype.toString` (RFC 8785) but
  /// with every significant digit, none lost to a `Double`.
  ///
  /// With `digits` the significant digits (no leading or trailing zero) and the value
  /// `0.digits × 10^n`:
  /// - zero, `-0` too, is `0`;
  /// - an integer of at most 21 digits is written in full: `1`, `-15`, `9007199254740993`,
  ///   `100000000000000000000` (every 64-bit integer is one);
  /// - a value of at most 21 digits before the point is written with a point: `1.5`,
  ///   `123.456`, `-0.001`, down to `0.000001`;
  /// - any other is one digit, the rest after a point, then `e`, the sign and the exponent:
  ///   `1e+21`, `1.2345678901234567890123e+22`, `1e-7`, `-2.5e-10`.
  ///
  /// So `1`, `1.0`, `1e0`, `10E-1` and `0.1e1` are all `1`. The exponent is exact however long
  /// it is written (`1e100000000000000000000` is `1e+100000000000000000000`), and the output is
  /// never much longer than the input but for the zeros of an integer of up to 21 digits.
  ///
  /// - Complexity: O(length of `raw`).
  static func writeNumber(
    _ raw: UnsafeRawBufferPointer, isInteger: Bool, into out: inout ByteBuffer
  ) {
    let minus = UInt8(ascii: "-")
    let zero = UInt8(ascii: "0")
    let negative = raw.first == minus
    // The fast path: an integer as JSON writes one (no leading zero), short enough.
    if isInteger {
      let digits = raw.count - (negative ? 1 : 0)
      if digits <= fullDigits && !(digits == 1 && raw[raw.count - 1] == zero) {
        out.append(raw)
        return
      }
    }
    // The significant digits of the integer and fraction parts, and the written exponent.
    var significant: [UInt8] = []
    significant.reserveCapacity(raw.count)
    var fractionDigits = 0
    var position = negative ? 1 : 0
    var inFraction = false
    while position < raw.count {
      let byte = raw[position]
      if byte == UInt8(ascii: ".") {
        inFraction = true
      } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
        break
      } else {
        // Leading zeros count for nothing but the fraction's place.
        if !(significant.isEmpty && byte == zero) { significant.append(byte) }
        if inFraction { fractionDigits += 1 }
      }
      position += 1
    }
    var exponentNegative = false
    var exponent: [UInt8] = []  // its digits, without leading zeros
    if position < raw.count {
      position += 1
      if raw[position] == minus || raw[position] == UInt8(ascii: "+") {
        exponentNegative = raw[position] == minus
        position += 1
      }
      while position < raw.count {
        if !(exponent.isEmpty && raw[position] == zero) { exponent.append(raw[position]) }
        position += 1
      }
    }
    var trailingZeros = 0
    while let last = significant.last, last == zero {
      significant.removeLast()
      trailingZeros += 1
    }
    guard !significant.isEmpty else {
      out.append(zero)
      return
    }
    // value = 0.significant × 10^n, n = exponent + delta; delta is bounded by the text's length.
    let k = significant.count
    let delta = k + trailingZeros - fractionDigits
    if negative { out.append(minus) }
    // An exponent of 17 digits or fewer, and so n, fits in an Int with room to spare.
    guard exponent.count <= 17 else {
      // |exponent| >= 10^17 > |delta - 1|: the exponent form, its exponent's sign that of the
      // written one, its magnitude the written one moved by delta - 1.
      appendMantissa(significant, into: &out)
      out.append(UInt8(ascii: "e"))
      out.append(exponentNegative ? minus : UInt8(ascii: "+"))
      let shift = exponentNegative ? 1 - delta : delta - 1
      out.append(contentsOf: Self.adding(shift, toDigits: exponent))
      return
    }
    var written = 0
    for digit in exponent { written = written * 10 + Int(digit - zero) }
    let n = (exponentNegative ? -written : written) + delta
    if k <= n && n <= fullDigits {
      out.append(contentsOf: significant)
      for _ in 0..<(n - k) { out.append(zero) }
    } else if 0 < n && n <= fullDigits {
      out.append(contentsOf: significant[..<n])
      out.append(UInt8(ascii: "."))
      out.append(contentsOf: significant[n...])
    } else if -6 < n && n <= 0 {
      out.append("0.")
      for _ in 0..<(-n) { out.append(zero) }
      out.append(contentsOf: significant)
    } else {
      appendMantissa(significant, into: &out)
      let e = n - 1
      out.append(UInt8(ascii: "e"))
      out.append(e < 0 ? minus : UInt8(ascii: "+"))
      out.append(decimal: Int64(e.magnitude))
    }
  }

  /// `d` or `d.ddd`: the first significant digit, then the others after a point.
  private static func appendMantissa(_ significant: [UInt8], into out: inout ByteBuffer) {
    out.append(significant[0])
    if significant.count > 1 {
      out.append(UInt8(ascii: "."))
      out.append(contentsOf: significant[1...])
    }
  }

  /// The decimal digits of `digits` (most significant first, no leading zero) plus `shift`,
  /// where the result stays positive: |shift| is far below the number.
  static func adding(_ shift: Int, toDigits digits: [UInt8]) -> [UInt8] {
    let zero = UInt8(ascii: "0")
    var result = digits.map { Int($0 - zero) }
    var carry = shift
    var position = result.count - 1
    while carry != 0 && position >= 0 {
      let sum = result[position] + carry
      // Floor division, so that a borrow carries -1 and the digit stays in 0...9.
      var quotient = sum / 10
      var remainder = sum % 10
      if remainder < 0 {
        remainder += 10
        quotient -= 1
      }
      result[position] = remainder
      carry = quotient
      position -= 1
    }
    while carry > 0 {
      result.insert(carry % 10, at: 0)
      carry /= 10
    }
    let first = result.firstIndex { $0 != 0 } ?? result.count - 1
    return result[first...].map { UInt8($0) + zero }
  }
}

extension ByteBuffer {
  fileprivate mutating func append<C: Collection>(contentsOf bytes: C) where C.Element == UInt8 {
    for byte in bytes { append(byte) }
  }
}
