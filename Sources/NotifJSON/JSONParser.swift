import CNotifSIMD

/// Why a JSON text was rejected, and where.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A stable code for the kind of problem.
  public enum Code: String, Sendable {
    case invalidJSON = "InvalidJSON"
    case invalidUTF8 = "InvalidUTF8"
    case duplicateKey = "DuplicateKey"
    case nestingTooDeep = "NestingTooDeep"
    case recordTooLarge = "RecordTooLarge"
  }

  /// The kind of problem.
  public var code: Code
  /// The byte offset, within the text, where the problem is.
  public var offset: Int
  /// One lowercase line that says what is wrong.
  public var message: String

  /// Creates an error.
  public init(_ code: Code, at offset: Int, _ message: String) {
    self.code = code
    self.offset = offset
    self.message = message
  }

  public var description: String { message }
}

/// What one call to `JSONParser.parse` found.
public enum JSONParseResult: Equatable {
  /// A whole value ends at this offset; its tape is ready.
  case complete(end: Int)
  /// The bytes end inside a value: call again with more.
  case incomplete
  /// The bytes are not JSON.
  case failed(JSONError)
}

/// A strict (RFC 8259) validating JSON parser that fills a reusable tape.
///
/// Beyond the grammar it rejects invalid UTF-8, unpaired surrogate escapes, duplicate keys
/// (compared after unescaping) and nesting deeper than `maxDepth`. One instance is reused for
/// every record: after warm-up it allocates nothing per record. Strings are checked 64 bytes at
/// a time while they are plain ASCII, through a vector pass over the bytes, in long texts;
/// sixteen at a time in other texts on x86-64; eight at a time on the scalar path (`JSONScan`).
public struct JSONParser: ~Copyable {
  // The tape of the last complete value: managed by hand, as an array's uniqueness and bounds
  // checks on every token appended cost more than scanning the token's bytes.
  private var tape: UnsafeMutablePointer<JSONToken>
  private var tapeCapacity: Int
  /// The number of tokens on the tape of the last complete value.
  public private(set) var tokenCount = 0
  /// Whether the last complete value was already in compact canonical form: no white space
  /// between its tokens and no escape in its strings but those the writer writes (`\"`, `\\`,
  /// `\n`, `\t`, `\r`, `\b`, `\f`), so its raw bytes can be copied as they are instead of
  /// written again.
  public private(set) var isCompact = false
  /// The deepest nesting of objects and arrays accepted.
  public let maxDepth: Int
  /// Whether the keys of the outermost object are checked for duplicates while parsing (not
  /// when every member had the key `expectRootKeys` expects at its place: those are distinct).
  /// A caller that knows them distinct by other means (a record's keys in their usual order)
  /// turns this off and calls `rootDuplicateKeyError` when it does not.
  public var checksRootKeys = true
  // The open objects and arrays, innermost last, as tape indices; and room to compare the keys
  // of one object. Managed by hand too: they are touched for every value.
  private var stack: UnsafeMutablePointer<Int>
  private var depth = 0
  // For each open object, by its place on the stack, a 64-bit filter of its keys so far: one
  // bit for each, chosen by its bytes (`filterKey`). A key whose bit is already set, or with an
  // escape, sets them all (`keyFilterFull`), and the object's keys are compared when it closes;
  // an object whose keys each set a bit of their own has no two alike, and is not compared. The
  // payloads of bench/callgrind.sh have four objects of two to nine keys each, whose comparison
  // cost 230 instructions an object.
  private var keyFilters: UnsafeMutablePointer<UInt64>
  private let keys: UnsafeMutablePointer<Int>
  private let hashes: UnsafeMutablePointer<UInt64>
  // The vector pass: the CNotifSIMD unit (0 for the scalar path), and for a window of the
  // 64-byte blocks of the bytes being parsed, from block `windowStart` to `windowEnd`, each
  // block's stops (bit k: byte k is a quote, a backslash, a control character or non-ASCII).
  // The window is filled a few blocks ahead of the string being read, as the parse moves only
  // forward; a value of any length needs only its room.
  private let vectorLevel: Int32
  // With `.automatic`, the vector pass is taken for a text after one of `longText` bytes or
  // more (where it was read so far, as far as the parse went).
  private let alwaysVector: Bool
  private var lastLength = 0
  private let stops: UnsafeMutablePointer<UInt64>
  private let lastBlock: UnsafeMutablePointer<UInt8>  // a last block cut short, padded
  private var windowStart = 0
  private var windowEnd = 0
  // The keys `expectRootKeys` gave, each spelled `"key":`; none while expectedCount is 0.
  private var expectedKeys: PackedKeys?
  // Its bytes and starts, kept here so that the state machine reads them without a load
  // through the object: key i is expectedBytes[expectedStarts[i]..<expectedStarts[i + 1]].
  private var expectedBytes: UnsafeRawPointer?
  private var expectedStarts: UnsafePointer<Int>?
  private var expectedCount = 0
  // The tape index of the value of each expected key's member, by the key's place among the
  // expected keys, -1 for a key left out (all are -1 when a parse starts): where a reader finds
  // the member without walking the tape to it (`expectedValueIndices`).
  private var expectedValues: UnsafeMutablePointer<Int32>?
  // Whether the parse may still read the outermost object's next member by an expected key:
  // every member before had one, each a later one than the one before, and keys remain. One
  // test for each key of every object, where the three it stands for cost notif-expire 3% of
  // its instructions.
  private var expecting = false
  // How many expected keys were left out before the next (`laterExpectedKey`): the members
  // read by expected keys are `expectedKeysSeen - expectedLeftOut` while the parse runs.
  private var expectedLeftOut = 0

  /// How many of the first members of the last complete value, an object, had the key
  /// `expectRootKeys` expects at their place, each written as it is (no escape) with its colon
  /// right after it: all of its members up to the first that had not. 0 for any other value.
  /// (While a parse runs: the place of the expected key the next member is tried with first.)
  public private(set) var expectedKeysSeen = 0

  /// Whether every member of the last complete value, an object, had one of the keys
  /// `expectRootKeys` expects, written as it is with its colon right after it, each a later
  /// one than the one before (those between left out, as a record leaves out its null
  /// fields): then no key repeats, and `expectedKeyValues` says where each key's value is.
  public private(set) var expectedKeysComplete = false

  /// The tape index of the value of each of the first `expectedKeysSeen` members of the last
  /// complete value, in member order: valid until the next parse.
  public var expectedValueIndices: UnsafeBufferPointer<Int32> {
    UnsafeBufferPointer(start: expectedValues, count: expectedValues == nil ? 0 : expectedKeysSeen)
  }

  /// Where the last complete value's members with expected keys are: valid until the next
  /// parse.
  public var expectedKeyValues: ExpectedKeyValues {
    ExpectedKeyValues(
      prefix: expectedValueIndices,
      all: expectedKeysComplete
        ? UnsafeBufferPointer(start: expectedValues, count: expectedCount) : nil)
  }

  /// The default nesting limit: far beyond any real payload, far below a stack overflow.
  public static let defaultMaxDepth = 128

  /// The length of a text from which the next is read with the vector pass (`.automatic`).
  /// The pass pays in long strings (18% fewer instructions for notif-parse on payloads whose
  /// strings run to a few kilobytes) and costs in short ones (4% more on the payloads of
  /// bench/callgrind.sh, 150 to 800 bytes each, whose strings mostly end within 32 bytes; 5.6%
  /// more in notif-mark on records of 1.1 KB, whose strings are as short). A text past twice
  /// the size of a record is the sign of long strings that costs nothing to read; keeping the
  /// longest string of each text in the parse's cursor instead cost more than the pass saved.
  static let longText = 2048

  /// Blocks of stops the window holds, and how many it fills ahead at a time.
  static let windowBlocks = 64
  static let blocksAhead = 4

  /// Creates a parser that accepts nesting up to `maxDepth` levels, and finds the bytes of
  /// strings it must look at as `scan` says.
  public init(maxDepth: Int = JSONParser.defaultMaxDepth, scan: JSONScan = .default) {
    self.maxDepth = maxDepth
    vectorLevel = scan.level
    alwaysVector = scan == .vector
    stops = UnsafeMutablePointer<UInt64>.allocate(capacity: Self.windowBlocks)
    lastBlock = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
    lastBlock.initialize(repeating: 0, count: 64)
    tapeCapacity = 256
    tape = Self.tokens(nil, capacity: tapeCapacity)
    stack = UnsafeMutablePointer<Int>.allocate(capacity: max(maxDepth, 0) + 1)
    keyFilters = UnsafeMutablePointer<UInt64>.allocate(capacity: max(maxDepth, 0) + 1)
    keys = UnsafeMutablePointer<Int>.allocate(capacity: Self.keysComparedInPairs)
    hashes = UnsafeMutablePointer<UInt64>.allocate(capacity: Self.keysComparedInPairs)
  }

  deinit {
    expectedValues?.deallocate()
    free(tape)
    stack.deallocate()
    keyFilters.deallocate()
    keys.deallocate()
    hashes.deallocate()
    stops.deallocate()
    lastBlock.deallocate()
  }

  @inline(__always)
  private mutating func appendToken(_ token: JSONToken) {
    if _slowPath(tokenCount == tapeCapacity) { growTape() }
    (tape + tokenCount).initialize(to: token)
    tokenCount &+= 1
  }

  // `realloc`, as tokens are plain values: a large tape grows by remapping its pages, without
  // a copy or both tapes at once, so a text of many small values (a tape of several times its
  // bytes) peaks at its tape, not one and a half times it.
  @inline(never)
  private mutating func growTape() {
    tape = Self.tokens(tape, capacity: tapeCapacity * 2)
    tapeCapacity *= 2
  }

  /// Room for `capacity` tokens from `realloc`: `tape`'s tokens moved there, or new room.
  private static func tokens(_ tape: UnsafeMutablePointer<JSONToken>?, capacity: Int)
    -> UnsafeMutablePointer<JSONToken>
  {
    let bytes = capacity * MemoryLayout<JSONToken>.stride
    guard let room = realloc(tape, bytes) else {
      preconditionFailure("JSONParser: out of memory for a tape of \(capacity) tokens")
    }
    return room.bindMemory(to: JSONToken.self, capacity: capacity)
  }

  /// Has the parser expect the outermost object's members to have `keys`, in this order, each
  /// written `"key":` (no escape, the colon right after it), as a writer in that order writes
  /// them: the first members whose keys are those are read by one comparison each, the key's
  /// bytes with its quotes and the colon, rather than scanned (`expectedKeysSeen` says how
  /// many were). The tape is the same either way, and any other member is read as before.
  ///
  /// - Precondition: each key is printable ASCII without a quote or a backslash, and no two
  ///   are the same: an outermost object whose members all had their expected keys has no
  ///   duplicate, and its keys are not compared again.
  public mutating func expectRootKeys(_ keys: [[UInt8]]) {
    precondition(
      keys.allSatisfy { $0.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C } },
      "an expected key must be printable ASCII without a quote or a backslash")
    precondition(Set(keys).count == keys.count, "the expected keys must differ")
    expectedValues?.deallocate()
    let spelled = PackedKeys(keys.map { [0x22] + $0 + [0x22, 0x3A] })
    expectedKeys = spelled
    expectedBytes = spelled.bytes
    expectedStarts = spelled.starts
    expectedCount = keys.count
    expectedValues = UnsafeMutablePointer<Int32>.allocate(capacity: keys.count)
  }

  /// Parses one JSON value that starts at the first byte of `bytes` (no leading white space).
  ///
  /// `isFinal` says that no more bytes will follow, so a value cut short is an error rather
  /// than `.incomplete`. On `.complete`, `withView` shows the value's tape. A value longer than
  /// 2 GiB is `.incomplete` (the reader's size limit rejects it long before).
  ///
  /// - Complexity: O(n) in the length of the value.
  public mutating func parse(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) -> JSONParseResult {
    // Offsets, token indices and counts are stored in 32 bits without a check each, and the
    // state machine adds to them with wrapping arithmetic: only the first 2 GiB are looked at,
    // and a value longer than that is never complete.
    let limit = Int(Int32.max)
    let isFinal = isFinal && bytes.count <= limit
    let bytes = bytes.count <= limit ? bytes : UnsafeRawBufferPointer(rebasing: bytes[..<limit])
    tokenCount = 0
    depth = 0
    expectedKeysSeen = 0
    expectedKeysComplete = false
    expecting = expectedCount > 0
    expectedLeftOut = 0
    windowStart = 0
    windowEnd = 0
    guard let base = bytes.baseAddress, !bytes.isEmpty else {
      return isFinal
        ? .failed(JSONError(.invalidJSON, at: 0, "unexpected end of input")) : .incomplete
    }
    var c = Cursor(p: base.assumingMemoryBound(to: UInt8.self), n: bytes.count, isFinal: isFinal)
    let vector = vectorLevel != 0 && (alwaysVector || lastLength >= Self.longText)
    do {
      if expectedCount > 0 {
        // One fill for every key a record leaves out, where a fill of each gap as it was
        // found was a call to memset for each (0.8% of notif-expire's instructions).
        expectedValues.unsafelyUnwrapped.update(repeating: -1, count: expectedCount)
        try run(&c, vector: vector, ExpectedKeys.self)
        // Out of `run`: any code added to what it inlines cost dense records 5-9% there.
        finishExpectedKeys()
      } else {
        try run(&c, vector: vector, AnyKeys.self)
      }
      isCompact = !c.needsRewrite
      lastLength = c.i
      return .complete(end: c.i)
    } catch {
      // Of no complete value: not the place a parse cut short had reached.
      expectedKeysSeen = 0
      switch error {
      case .incomplete:
        lastLength = bytes.count
        return .incomplete
      case .failed(let e):
        lastLength = e.offset
        return .failed(e)
      }
    }
  }

  /// Calls `body` with a view of the last complete value over the bytes it was parsed from.
  public func withView<R>(
    over bytes: UnsafeRawBufferPointer, _ body: (JSONView) throws -> R
  ) rethrows -> R {
    try body(JSONView(tokens: UnsafeBufferPointer(start: tape, count: tokenCount), bytes: bytes))
  }

  /// The duplicate key error of the last complete value, an object parsed from `bytes` with
  /// `checksRootKeys` off, or nil: the error the parse would have ended with.
  public mutating func rootDuplicateKeyError(over bytes: UnsafeRawBufferPointer) -> JSONError? {
    guard tokenCount > 0, tape[0].kind == .object, tape[0].count > 1,
      let base = bytes.baseAddress
    else { return nil }
    let c = Cursor(p: base.assumingMemoryBound(to: UInt8.self), n: bytes.count, isFinal: true)
    do {
      try checkDuplicateKeys(object: 0, c)
      return nil
    } catch {
      guard case .failed(let error) = error else { return nil }
      return error
    }
  }

  // MARK: - The state machine

  struct Cursor {
    let p: UnsafePointer<UInt8>
    let n: Int
    let isFinal: Bool
    var i = 0
    var needsRewrite = false  // white space, or an escape the canonical form writes otherwise
  }

  enum Stop: Error {
    case incomplete
    case failed(JSONError)
  }

  private enum State {
    case value, afterValue, objectFirst, objectKey, arrayFirst
  }

  /// Runs the state machine on the path the parse takes.
  @inline(__always)
  private mutating func run<Keys: KeyReading>(_ c: inout Cursor, vector: Bool, _: Keys.Type)
    throws(Stop)
  {
    // One copy of the state machine for each path, each with its own string scan inlined:
    // a test of the path in every string cost more than the vector pass saved. Each again
    // with expected keys and without: their test for every key cost a parser that expects
    // none 0.6% more instructions (bench/callgrind.sh).
    if vector {
      try run(&c, VectorStops.self, Keys.self)
    } else if vectorLevel == 0 {
      try run(&c, WordStops.self, Keys.self)
    } else {
      #if arch(x86_64)
        try run(&c, LaneStops.self, Keys.self)
      #else
        try run(&c, WordStops.self, Keys.self)
      #endif
    }
  }

  private mutating func run<Stops: StopScan, Keys: KeyReading>(
    _ c: inout Cursor, _: Stops.Type, _: Keys.Type
  ) throws(Stop) {
    var state = State.value
    while true {
      switch state {
      case .value:
        let b = try peekSkippingSpace(&c)
        switch b {
        case UInt8(ascii: "{"):
          try open(.object, &c)
          state = .objectFirst
        case UInt8(ascii: "["):
          try open(.array, &c)
          state = .arrayFirst
        case UInt8(ascii: "\""):
          try string(&c, Stops.self)
          state = .afterValue
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
          try number(&c)
          state = .afterValue
        case UInt8(ascii: "t"):
          if !literal(&c, Self.trueHead, 4, .bool, true) {
            try literalInFull(&c, "true", .bool, true)
          }
          state = .afterValue
        case UInt8(ascii: "f"):
          if !literal(&c, Self.falseHead, 5, .bool, false) {
            try literalInFull(&c, "false", .bool, false)
          }
          state = .afterValue
        case UInt8(ascii: "n"):
          if !literal(&c, Self.nullHead, 4, .null, false) {
            try literalInFull(&c, "null", .null, false)
          }
          state = .afterValue
        default:
          throw Self.unexpectedStop(c, expecting: "a JSON value")
        }
      case .objectFirst:
        if try peekSkippingSpace(&c) == UInt8(ascii: "}") {
          try close(&c)
          state = .afterValue
        } else {
          state = .objectKey
        }
      case .objectKey:
        if Keys.expects && expectedKey(&c) {
          switch try memberValue(&c, Stops.self) {
          case .nextKey: break
          case .read: state = .afterValue
          case .none: state = .value
          }
          continue
        }
        let b = try peekSkippingSpace(&c)
        guard b == UInt8(ascii: "\"") else {
          throw Self.unexpectedStop(c, expecting: "a string key")
        }
        tape[stack[depth &- 1]].count &+= 1
        try string(&c, Stops.self)
        filterKey(tape[tokenCount &- 1], c)
        guard try peekSkippingSpace(&c) == UInt8(ascii: ":") else {
          throw Self.unexpectedStop(c, expecting: "':' after the key")
        }
        c.i &+= 1
        state = .value
      case .arrayFirst:
        if try peekSkippingSpace(&c) == UInt8(ascii: "]") {
          try close(&c)
          state = .afterValue
        } else {
          tape[stack[depth &- 1]].count &+= 1
          state = .value
        }
      case .afterValue:
        guard depth > 0 else { return }
        let top = stack[depth &- 1]
        let b = try peekSkippingSpace(&c)
        let isObject = tape[top].kind == .object
        let closer = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        if b == UInt8(ascii: ",") {
          let comma = c.i
          c.i &+= 1
          if try peekSkippingSpace(&c) == closer {
            throw .failed(
              JSONError(
                .invalidJSON, at: comma,
                "trailing comma before '\(Character(Unicode.Scalar(closer)))'"))
          }
          if isObject {
            state = .objectKey
          } else {
            tape[top].count &+= 1
            state = .value
          }
        } else if b == closer {
          try close(&c)
        } else {
          if Self.messageNeedsMore(c, c.i) { throw .incomplete }
          let what =
            isObject ? "',' or '}' after an object member" : "',' or ']' after an array element"
          var error = Self.unexpected(c, c.i, expecting: what)
          if b == UInt8(ascii: "\"") || b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
            error.message += " (missing comma?)"
          }
          throw .failed(error)
        }
      }
    }
  }

  // The helpers of the state machine below are static, or mutating, on purpose: a call to a
  // non-mutating method of the parser from `run` made the compiler copy the whole parser to
  // the stack (and stall on the copy) around every value.

  @inline(__always)
  private func peekSkippingSpace(_ c: inout Cursor) throws(Stop) -> UInt8 {
    while c.i < c.n {
      let b = c.p[c.i]
      if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 {
        c.i &+= 1
        c.needsRewrite = true
      } else {
        return b
      }
    }
    throw Self.endOfInput(c, inside: depth == 0 ? nil : tape[stack[depth - 1]].kind)
  }

  private static func endOfInput(_ c: Cursor, inside kind: JSONKind?) -> Stop {
    if !c.isFinal { return .incomplete }
    let what = kind.map { $0 == .object ? "object" : "array" }
    return .failed(
      JSONError(
        .invalidJSON, at: c.n,
        what.map { "unexpected end of input inside an \($0)" } ?? "unexpected end of input"))
  }

  @inline(__always)
  private mutating func open(_ kind: JSONKind, _ c: inout Cursor) throws(Stop) {
    guard depth < maxDepth else {
      throw .failed(
        JSONError(
          .nestingTooDeep, at: c.i, "objects and arrays nested deeper than \(maxDepth) levels"))
    }
    stack[depth] = tokenCount
    keyFilters[depth] = 0
    depth &+= 1
    appendToken(
      JSONToken(
        kind: kind, flag: false, start: Int32(truncatingIfNeeded: c.i), end: 0, next: 0, count: 0))
    c.i &+= 1
  }

  @inline(__always)
  private mutating func close(_ c: inout Cursor) throws(Stop) {
    depth &-= 1
    let index = stack[depth]
    c.i &+= 1
    tape[index].end = Int32(truncatingIfNeeded: c.i)
    tape[index].next = Int32(truncatingIfNeeded: tokenCount)
    guard tape[index].kind == .object && tape[index].count > 1 else { return }
    // The outermost object's expected keys are not in its filter: when some are, its keys are
    // compared unless every member had its expected key.
    let expected = expectedKeysSeen &- expectedLeftOut
    let compares =
      depth > 0 || (checksRootKeys && expected == 0)
      ? keyFilters[depth] == Self.keyFilterFull
      : checksRootKeys && Int(tape[index].count) > expected
    if compares { try checkDuplicateKeys(object: index, c) }
  }

  /// A key filter that sends its object's keys to be compared (`keyFilters`).
  private static let keyFilterFull = UInt64.max

  /// Adds `key`, the key just read, to the filter of the innermost object (`keyFilters`).
  @inline(__always)
  private mutating func filterKey(_ key: JSONToken, _ c: Cursor) {
    let level = depth &- 1
    guard !key.flag else {
      keyFilters[level] = Self.keyFilterFull
      return
    }
    // The key's first and last bytes (its quotes when empty) and its length, mixed: cheaper
    // than `keyHash`, and on the payloads of bench/callgrind.sh two keys of one object share
    // a bit in 2% of the objects against 25% with `keyHash`'s top bits.
    let first = UInt64(c.p[Int(key.start) + 1])
    let last = UInt64(c.p[Int(key.end) - 2])
    let length = UInt64(truncatingIfNeeded: key.end &- key.start)
    let mixed = (first | last << 8 | length << 16) &* 0x9E37_79B9_7F4A_7C15
    let bit: UInt64 = 1 << (mixed >> 58)
    let seen = keyFilters[level]
    keyFilters[level] = seen & bit == 0 ? seen | bit : Self.keyFilterFull
  }

  /// Reads the key and colon of the next member of the outermost object in one comparison,
  /// if every member before it had an expected key (`expectRootKeys`) and this one has the
  /// next; then a later one, as a record leaves out its null fields (`laterExpectedKey`);
  /// else reads nothing and returns false. The token is the one `string` makes of the key.
  @inline(__always)
  private mutating func expectedKey(_ c: inout Cursor) -> Bool {
    guard expecting && depth == 1 else { return false }
    // Set only while there are expected keys.
    let bytes = expectedBytes.unsafelyUnwrapped
    let starts = expectedStarts.unsafelyUnwrapped
    // While the parse runs, the place of the expected key the next member is tried with first.
    var field = expectedKeysSeen
    var length = starts[field &+ 1] &- starts[field]
    if !(length <= c.n &- c.i && RawBytes.equal(c.p + c.i, bytes + starts[field], length)) {
      // A later key, those between left out (-1), or none: then reading no key, and expecting
      // none more.
      let later = Self.laterExpectedKey(
        UnsafeRawPointer(c.p + c.i), c.n &- c.i, after: field, bytes, starts, expectedCount)
      guard later > field else {
        expecting = false
        return false
      }
      expectedLeftOut &+= later &- field
      field = later
      length = starts[field &+ 1] &- starts[field]
    }
    tape[0].count &+= 1
    expectedValues.unsafelyUnwrapped[field] = Int32(truncatingIfNeeded: tokenCount &+ 1)
    scalar(.string, false, c.i, c.i &+ length &- 1)
    c.i &+= length
    expectedKeysSeen = field &+ 1
    expecting = field &+ 1 < expectedCount
    return true
  }

  /// The place of the expected key after `field` that the `available` bytes at `p` start with,
  /// `"key":`; those from `field` to it are left out (their values stay -1). `field` when
  /// there is none. Static and out of line: a record that leaves a field out read the rest of
  /// its keys by scanning them, and compared them after (8-9% of notif-expire's and
  /// notif-show's instructions), but a call in `run` that might change the parser (a mutating
  /// method) cost dense records, which never come here before their last member, 7-12% there.
  @inline(never)
  private static func laterExpectedKey(
    _ p: UnsafeRawPointer, _ available: Int, after field: Int, _ bytes: UnsafeRawPointer,
    _ starts: UnsafePointer<Int>, _ count: Int
  ) -> Int {
    var later = field &+ 1
    while later < count {
      let from = starts[later]
      let length = starts[later &+ 1] &- from
      if length <= available && RawBytes.equal(p, bytes + from, length) {
        return later
      }
      later &+= 1
    }
    return field
  }

  /// After a parse with expected keys: how many of the first members had the keys of their
  /// places (`expectedKeysSeen`), and whether every member of the outermost object had an
  /// expected key, each a later one than the one before (`expectedKeysComplete`; the keys
  /// left out, after the last member too, are -1 in `expectedValues`).
  @inline(never)
  private mutating func finishExpectedKeys() {
    let next = expectedKeysSeen
    let values = expectedValues.unsafelyUnwrapped
    // The members before the first key left out had the keys of their places.
    var prefix = 0
    if expectedLeftOut > 0 {
      while values[prefix] >= 0 { prefix &+= 1 }
    } else {
      prefix = next
    }
    expectedKeysSeen = prefix
    guard tokenCount > 0, tape[0].kind == .object, Int(tape[0].count) == next &- expectedLeftOut
    else { return }
    expectedKeysComplete = true
  }

  /// What `memberValue` read.
  private enum MemberValue {
    /// The value and the comma after it: the next member's key is next.
    case nextKey
    /// The value: what follows it is read as after any value.
    case read
    /// Nothing: the value is read as any value.
    case none
  }

  /// Reads the value of the member whose expected key was just read when it is a string, a
  /// number, `null`, `true` or `false` (every member of a record but its payload), and with
  /// it the comma when the next member's key follows at once (`,"`), where the state machine
  /// would go round through `.value` and `.afterValue`: on notif records of 1.1 KB, 21 of
  /// whose 38 members are null, the parser expecting their keys read 14-19% more bytes a
  /// second. The tape, and where the parse goes on, are those of the round.
  @_transparent
  private mutating func memberValue<Stops: StopScan>(_ c: inout Cursor, _: Stops.Type)
    throws(Stop) -> MemberValue
  {
    let start = c.i
    // The longest literal, its comma and the next key's quote.
    guard start &+ 7 <= c.n else { return .none }
    let head = UnsafeRawPointer(c.p + start).loadUnaligned(as: UInt32.self)
    let literal =
      head == Self.nullHead || head == Self.trueHead
      ? 4 : head == Self.falseHead && c.p[start &+ 4] == UInt8(ascii: "e") ? 5 : 0
    if literal > 0 {
      // Anything else after it (`nullx`, `null}`) is read as any value.
      guard c.p[start &+ literal] == UInt8(ascii: ","),
        c.p[start &+ literal &+ 1] == UInt8(ascii: "\"")
      else { return .none }
      scalar(head == Self.nullHead ? .null : .bool, head == Self.trueHead, start, start &+ literal)
      c.i = start &+ literal &+ 1
      return .nextKey
    }
    let b = c.p[start]
    if b == UInt8(ascii: "\"") {
      try string(&c, Stops.self)
    } else if b &- UInt8(ascii: "0") < 10 || b == UInt8(ascii: "-") {
      try number(&c)
    } else {
      return .none
    }
    if c.i &+ 2 <= c.n && c.p[c.i] == UInt8(ascii: ",") && c.p[c.i &+ 1] == UInt8(ascii: "\"") {
      c.i &+= 1
      return .nextKey
    }
    return .read
  }

  @inline(__always)
  private mutating func scalar(_ kind: JSONKind, _ flag: Bool, _ start: Int, _ end: Int) {
    appendToken(
      JSONToken(
        kind: kind, flag: flag, start: Int32(truncatingIfNeeded: start),
        end: Int32(truncatingIfNeeded: end), next: Int32(truncatingIfNeeded: tokenCount &+ 1),
        count: 0))
  }

  // MARK: - Scalars

  // Transparent, not `@inline(__always)`: with a scan for each path the optimizer kept this
  // function apart and merged the two copies of the state machine into one that called it
  // through a parameter (8% more instructions); transparent functions are always inlined.
  @_transparent
  private mutating func string<Stops: StopScan>(_ c: inout Cursor, _: Stops.Type) throws(Stop) {
    let start = c.i
    let p = c.p
    let n = c.n
    var i = start &+ 1
    var escaped = false
    scan: while true {
      i = Stops.next(&self, c, from: i)
      guard i < n else {
        c.i = i
        throw Self.endOfString(c, start)
      }
      let b = p[i]
      if b == UInt8(ascii: "\"") {
        i &+= 1
        break scan
      } else if b == UInt8(ascii: "\\") {
        escaped = true
        // `\u` and `\/` are written otherwise in canonical form: the text must be rewritten.
        if i &+ 1 < n && (p[i &+ 1] == UInt8(ascii: "u") || p[i &+ 1] == UInt8(ascii: "/")) {
          c.needsRewrite = true
        }
        i = try Self.escape(c, at: i, stringStart: start)
      } else if b < 0x20 {
        throw .failed(
          JSONError(
            .invalidJSON, at: i,
            "unescaped control character \(Self.controlName(UInt32(b))) in a string"
              + (b == 0x0A ? " (a line break must be written \\n)" : "")))
      } else if b < 0x80 {
        i &+= 1
      } else {
        i = try Self.utf8Sequence(c, at: i, stringStart: start)
      }
    }
    scalar(.string, escaped, start, i)
    c.i = i
  }

  private static func endOfString(_ c: Cursor, _ start: Int) -> Stop {
    c.isFinal
      ? .failed(JSONError(.invalidJSON, at: start, "string is not closed before the end of input"))
      : .incomplete
  }

  /// Whether the state machine tries the outermost object's keys against the expected ones
  /// (`expectRootKeys`) first.
  fileprivate protocol KeyReading {
    static var expects: Bool { get }
  }

  fileprivate enum ExpectedKeys: KeyReading {
    static var expects: Bool { true }
  }

  fileprivate enum AnyKeys: KeyReading {
    static var expects: Bool { false }
  }

  /// How a string is scanned for the next byte that matters: a quote, a backslash, a control
  /// character or a non-ASCII byte.
  fileprivate protocol StopScan {
    /// The first byte at or after `i` that may matter (each byte before it is plain ASCII
    /// text), at most `c.n`.
    static func next(_ parser: inout JSONParser, _ c: Cursor, from i: Int) -> Int
  }

  /// The scalar path: eight bytes a step while eight remain; the last few one by one.
  fileprivate enum WordStops: StopScan {
    @_transparent
    static func next(_ parser: inout JSONParser, _ c: Cursor, from i: Int) -> Int {
      var i = i
      while i &+ 8 <= c.n {
        let w = UnsafeRawPointer(c.p + i).loadUnaligned(as: UInt64.self)
        let mask = JSONParser.attentionMask(w)
        if mask != 0 {
          return i &+ mask.trailingZeroBitCount &>> 3  // straight to the first byte that matters
        }
        i &+= 8
      }
      return i
    }
  }

  #if arch(x86_64)
    /// The short-text path where the CPU has a vector unit: sixteen bytes a step with SSE2
    /// (`notif_simd_stops16`), then as the scalar path. A string's stops in one step where
    /// most strings of records and payloads end, instead of two or three words.
    fileprivate enum LaneStops: StopScan {
      @_transparent
      static func next(_ parser: inout JSONParser, _ c: Cursor, from i: Int) -> Int {
        var i = i
        while i &+ 16 <= c.n {
          let mask = notif_simd_stops16(c.p + i)
          if mask != 0 { return i &+ mask.trailingZeroBitCount }
          i &+= 16
        }
        return WordStops.next(&parser, c, from: i)
      }
    }
  #endif

  /// The vector path: the first words as on the scalar path, then the stops the vector pass
  /// found, 64 bytes a block. Most strings (keys, ids, short values) end within a few words,
  /// where the pass costs more than it saves (4% more instructions on the payloads of
  /// bench/callgrind.sh when it took over after two words); longer text is where it pays.
  ///
  /// Why the state machine itself does not walk an index of tokens (measured 2026-11-26, on
  /// notif records of 1.1 KB, one thread, AVX2): with tokens (structural characters, opening
  /// quotes, the first byte of each scalar) and stops taken from `notif_simd_classify` four
  /// blocks ahead, and every surprise handed back to the byte walk, the parser read 759 MB/s
  /// against the byte walk's 1,081, and ran 470 million instructions for 20,000 records
  /// against 330. Classifying cost 66 million of them, finding each next bit 120 million: in
  /// compact text the next token is the next byte, one compare for the byte walk.
  fileprivate enum VectorStops: StopScan {
    static let wordsFirst = 4

    @_transparent
    static func next(_ parser: inout JSONParser, _ c: Cursor, from i: Int) -> Int {
      var i = i
      for _ in 0..<wordsFirst {
        guard i &+ 8 <= c.n else { return parser.stopFurther(c, from: i) }
        let mask = JSONParser.attentionMask(
          UnsafeRawPointer(c.p + i).loadUnaligned(as: UInt64.self))
        if mask != 0 { return i &+ mask.trailingZeroBitCount &>> 3 }
        i &+= 8
      }
      return parser.stopFurther(c, from: i)
    }
  }

  /// The first byte at or after `i` that is a quote, a backslash, a control character or
  /// non-ASCII, from the vector pass; `c.n` if none is. Each call's `i` is at or after the one
  /// before in the same parse. Not inlined: the state machine stays as small as on the scalar
  /// path, and a string long enough to get here pays for the call.
  @inline(never)
  fileprivate mutating func stopFurther(_ c: Cursor, from i: Int) -> Int {
    guard i < c.n else { return c.n }
    var block = i &>> 6
    var mask = stopsOf(block, c) & (~0 &<< UInt64(i & 63))
    while mask == 0 {
      block += 1
      guard block &<< 6 < c.n else { return c.n }
      mask = stopsOf(block, c)
    }
    return block &<< 6 + mask.trailingZeroBitCount
  }

  /// The stops of block `block`, from the window, filled first if the block is past it.
  @inline(__always)
  private mutating func stopsOf(_ block: Int, _ c: Cursor) -> UInt64 {
    if _slowPath(block >= windowEnd) { fillWindow(from: block, c) }
    return stops[block - windowStart]
  }

  /// Fills the window from block `block` (where the blocks before it are no longer needed) a
  /// few blocks ahead. The last block, if the bytes end inside it, is read from a copy padded
  /// with zeros, which are stops: a scan never passes the end of the bytes.
  @inline(never)
  private mutating func fillWindow(from block: Int, _ c: Cursor) {
    if block + Self.blocksAhead > windowStart + Self.windowBlocks {
      windowStart = block
    }
    let to = min(block + Self.blocksAhead, (c.n + 63) >> 6)
    let whole = min(to, c.n >> 6)
    if block < whole {
      notif_simd_stops(c.p + block << 6, whole - block, stops + (block - windowStart), vectorLevel)
    }
    if whole < to {
      // The bytes end inside block `whole`, the last.
      lastBlock.update(repeating: 0, count: 64)
      lastBlock.update(from: c.p + whole << 6, count: c.n - whole << 6)
      notif_simd_stops(lastBlock, 1, stops + (whole - windowStart), vectorLevel)
    }
    windowEnd = to
  }

  /// The high bit of each of the eight bytes (little-endian) that is a quote, a backslash, a
  /// control character or non-ASCII. Bits above the lowest set one may be false alarms (a
  /// borrow runs upward), but the lowest is exact: it marks the first byte that matters.
  @inline(__always)
  static func attentionMask(_ w: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let quote = w ^ (ones &* 0x22)
    let backslash = w ^ (ones &* 0x5C)
    let hasQuote = (quote &- ones) & ~quote
    let hasBackslash = (backslash &- ones) & ~backslash
    let hasControl = (w &- ones &* 0x20) & ~w
    return (hasQuote | hasBackslash | hasControl | w) & highs
  }

  private static func escape(_ c: Cursor, at i: Int, stringStart: Int) throws(Stop) -> Int {
    guard i + 1 < c.n else { throw Self.endOfString(c, stringStart) }
    switch c.p[i + 1] {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
      UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      return i + 2
    case UInt8(ascii: "u"):
      let unit = try Self.hex4(c, at: i + 2, stringStart: stringStart)
      if unit >= 0xDC00 && unit < 0xE000 {
        throw .failed(
          JSONError(.invalidJSON, at: i, "unpaired low surrogate escape \(Self.escapeText(unit))"))
      }
      guard unit >= 0xD800 && unit < 0xDC00 else { return i + 6 }
      guard i + 12 <= c.n || c.isFinal else { throw .incomplete }
      guard i + 12 <= c.n, c.p[i + 6] == UInt8(ascii: "\\"), c.p[i + 7] == UInt8(ascii: "u") else {
        throw .failed(
          JSONError(.invalidJSON, at: i, "unpaired high surrogate escape \(Self.escapeText(unit))"))
      }
      let low = try Self.hex4(c, at: i + 8, stringStart: stringStart)
      guard low >= 0xDC00 && low < 0xE000 else {
        throw .failed(
          JSONError(.invalidJSON, at: i, "unpaired high surrogate escape \(Self.escapeText(unit))"))
      }
      return i + 12
    default:
      if Self.messageNeedsMore(c, i + 1, word: false) { throw .incomplete }
      // A backslash before what has no quotable text (a space, a control character, the end)
      // says so; `'\x'` quotes the rest.
      let next = i + 1 < c.n ? c.p[i + 1] : 0
      let message =
        next <= 0x20 || next == 0x7F
        ? "invalid escape: a backslash before \(Self.describe(c, i + 1))"
        : "invalid escape \(Self.describe(c, i + 1, quoted: "'\\", "'"))"
      throw .failed(JSONError(.invalidJSON, at: i, message))
    }
  }

  private static func hex4(_ c: Cursor, at i: Int, stringStart: Int) throws(Stop) -> UInt32 {
    var value: UInt32 = 0
    for k in i..<i + 4 {
      guard k < c.n else { throw Self.endOfString(c, stringStart) }
      let digit = JSONEscapes.hexValue(c.p[k])
      guard digit != 0xFF else {
        throw .failed(
          JSONError(.invalidJSON, at: i - 2, "invalid \\u escape: expected four hex digits"))
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// Validates the UTF-8 sequence at `i` (Unicode Table 3-7) and returns the offset after it.
  private static func utf8Sequence(_ c: Cursor, at i: Int, stringStart: Int) throws(Stop) -> Int {
    switch Self.utf8Length(c.p, i, c.n) {
    case .valid(let length): return i + length
    case .truncated: throw c.isFinal ? .failed(Self.invalidUTF8(c, i)) : .incomplete
    case .invalid: throw .failed(Self.invalidUTF8(c, i))
    }
  }

  private static func invalidUTF8(_ c: Cursor, _ i: Int) -> JSONError {
    JSONError(.invalidUTF8, at: i, "invalid UTF-8 byte \(Self.hexByte(c.p[i]))")
  }

  enum UTF8Check { case valid(Int), truncated, invalid }

  static func utf8Length(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> UTF8Check {
    let lead = p[i]
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0: length = 3; low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: length = 3; high = 0x9F
    case 0xF0: length = 4; low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4: length = 4; high = 0x8F
    default: return .invalid
    }
    for k in 1..<length {
      guard i + k < n else { return .truncated }
      let b = p[i + k]
      let (lo, hi) = k == 1 ? (low, high) : (0x80, 0xBF)
      if b < lo || b > hi { return .invalid }
    }
    return .valid(length)
  }

  /// Reads a number: the common shapes (`-12`, `0.25`) with the byte after them at hand in one
  /// tight scan; anything else (an exponent, an error, the end of the bytes so far) by
  /// `numberInFull`, from the start.
  @inline(__always)
  private mutating func number(_ c: inout Cursor) throws(Stop) {
    let p = c.p
    let n = c.n
    let start = c.i
    var i = start
    if p[i] == UInt8(ascii: "-") { i &+= 1 }
    @inline(__always) func isDigit(_ i: Int) -> Bool { i < n && p[i] &- 0x30 < 10 }
    if i < n && p[i] == UInt8(ascii: "0") {
      i &+= 1
    } else if isDigit(i) {
      while isDigit(i) { i &+= 1 }
    } else {
      return try numberInFull(&c)
    }
    var integer = true
    if i < n && p[i] == UInt8(ascii: ".") {
      integer = false
      i &+= 1
      guard isDigit(i) else { return try numberInFull(&c) }
      while isDigit(i) { i &+= 1 }
    }
    // The byte after must be there and end the number: not a digit (`01`), not an exponent.
    guard i < n, !isDigit(i), p[i] | 0x20 != UInt8(ascii: "e"), p[i] != UInt8(ascii: ".") else {
      return try numberInFull(&c)
    }
    scalar(.number, integer, start, i)
    c.i = i
  }

  private mutating func numberInFull(_ c: inout Cursor) throws(Stop) {
    let start = c.i
    let p = c.p
    let n = c.n
    var i = start
    var integer = true
    func more(_ i: Int) throws(Stop) -> UInt8? {
      if i < n { return p[i] }
      if !c.isFinal { throw .incomplete }
      return nil
    }
    func isDigit(_ b: UInt8?) -> Bool { b.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
    func bad(_ why: String, _ at: Int) -> Stop { .failed(JSONError(.invalidJSON, at: at, why)) }
    if p[i] == UInt8(ascii: "-") { i += 1 }
    let first = try more(i)
    if first == UInt8(ascii: "0") {
      i += 1
      if isDigit(try more(i)) { throw bad("numbers must not have leading zeros", start) }
    } else if isDigit(first) {
      while isDigit(try more(i)) { i += 1 }
    } else {
      throw bad("invalid number: expected a digit after '-'", start)
    }
    if try more(i) == UInt8(ascii: ".") {
      integer = false
      i += 1
      guard isDigit(try more(i)) else {
        throw bad("invalid number: expected a digit after '.'", start)
      }
      while isDigit(try more(i)) { i += 1 }
    }
    if let e = try more(i), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
      integer = false
      i += 1
      if let sign = try more(i), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { i += 1 }
      guard isDigit(try more(i)) else {
        throw bad("invalid number: expected a digit in the exponent", start)
      }
      while isDigit(try more(i)) { i += 1 }
    }
    scalar(.number, integer, start, i)
    c.i = i
  }

  // The first four bytes of each literal, as one little-endian load reads them.
  static var trueHead: UInt32 { UInt32(littleEndian: 0x6575_7274) }  // "true"
  static var falseHead: UInt32 { UInt32(littleEndian: 0x736C_6166) }  // "fals", then "e"
  static var nullHead: UInt32 { UInt32(littleEndian: 0x6C6C_756E) }  // "null"

  /// The common case of a literal: the whole word here and followed by a byte that may follow
  /// a value (`,`, `}`, `]` or white space), checked with one 4-byte compare (and the `e` of
  /// `false`). Returns false, having read nothing, for anything else: `literalInFull` then
  /// reads it, and words the error.
  @inline(__always)
  private mutating func literal(
    _ c: inout Cursor, _ head: UInt32, _ length: Int, _ kind: JSONKind, _ value: Bool
  ) -> Bool {
    let start = c.i
    guard start &+ length < c.n,
      UnsafeRawPointer(c.p + start).loadUnaligned(as: UInt32.self) == head,
      length == 4 || c.p[start &+ 4] == UInt8(ascii: "e")
    else { return false }
    let after = c.p[start &+ length]
    guard
      after == UInt8(ascii: ",") || after == UInt8(ascii: "}") || after == UInt8(ascii: "]")
        || after == 0x20 || after == 0x0A || after == 0x0D || after == 0x09
    else { return false }
    scalar(kind, value, start, start &+ length)
    c.i = start &+ length
    return true
  }

  private mutating func literalInFull(
    _ c: inout Cursor, _ word: StaticString, _ kind: JSONKind, _ value: Bool
  ) throws(Stop) {
    let start = c.i
    let length = word.utf8CodeUnitCount
    for k in 0..<length {
      guard start + k < c.n else {
        if !c.isFinal { throw .incomplete }
        throw .failed(Self.wordError(c, start))
      }
      if c.p[start + k] != word.utf8Start[k] { throw Self.wordStop(c, start) }
    }
    if start + length < c.n && Self.isWordByte(c.p[start + length]) {
      throw Self.wordStop(c, start)
    }
    // At the end of what has arrived, more letters could still follow (`nullx`): wait, as for
    // a number.
    if start + length == c.n && !c.isFinal { throw .incomplete }
    scalar(kind, value, start, start + length)
    c.i = start + length
  }

  // MARK: - Duplicate keys

  /// Objects with at most this many keys compare them in pairs; bigger ones use a hash table.
  static let keysComparedInPairs = 32

  /// A hash of a raw key's length and first and last eight bytes (fewer when shorter, read
  /// with loads that overlap, so no byte past the key is read).
  @inline(__always)
  static func keyHash(_ p: UnsafeRawPointer, _ length: Int) -> UInt64 {
    let head: UInt64
    let tail: UInt64
    if length >= 8 {
      head = p.loadUnaligned(as: UInt64.self)
      tail = p.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
    } else if length >= 4 {
      head = UInt64(p.loadUnaligned(as: UInt32.self))
      tail = UInt64(p.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self))
    } else if length > 0 {
      head = UInt64(p.load(as: UInt8.self))
      tail = UInt64(p.load(fromByteOffset: length - 1, as: UInt8.self)) << 8 | UInt64(length)
    } else {
      head = 0
      tail = 0
    }
    return (head &* 0x9E37_79B9_7F4A_7C15) ^ tail ^ (UInt64(truncatingIfNeeded: length) << 56)
  }

  private mutating func checkDuplicateKeys(object index: Int, _ c: Cursor) throws(Stop) {
    // Keys each a later expected key than the one before are distinct.
    if index == 0 && expectedKeysComplete { return }
    let count = Int(tape[index].count)
    let bytes = UnsafeRawBufferPointer(start: c.p, count: c.n)
    let view = JSONView(tokens: UnsafeBufferPointer(start: tape, count: tokenCount), bytes: bytes)
    var duplicate: Int? = nil
    if count <= 4 {
      // A few keys: every pair, which mostly differ in length.
      var key = index + 1
      for k in 0..<count {
        keys[k] = key
        key = Int(tape[key + 1].next)
      }
      search: for a in 1..<count {
        for b in 0..<a where Self.keysEqual(view, keys[a], keys[b]) {
          duplicate = keys[a]
          break search
        }
      }
    } else if count <= Self.keysComparedInPairs {
      // A raw key is compared with the keys before it only when a 64-bit filter of their
      // hashes says it may repeat one, and by bytes only with those of the same hash. An
      // escaped key makes every pair compare decoded text.
      var plain = true
      var seen: UInt64 = 0
      var key = index + 1
      scan: for k in 0..<count {
        keys[k] = key
        let token = tape[key]
        key = Int(tape[key + 1].next)
        guard !token.flag else {
          plain = false
          continue
        }
        guard plain else { continue }
        let hash = Self.keyHash(
          UnsafeRawPointer(c.p + Int(token.start) + 1), Int(token.end - token.start) - 2)
        hashes[k] = hash
        let bit: UInt64 = 1 << (hash >> 58)
        if seen & bit != 0 {
          for b in 0..<k where hashes[b] == hash && Self.keysEqual(view, keys[k], keys[b]) {
            duplicate = keys[k]
            break scan
          }
        }
        seen |= bit
      }
      if !plain {
        // Each key decoded once, not once per pair: long escaped keys cost their length.
        let decoded = (0..<count).map { view.stringBytes(keys[$0]) }
        search: for a in 1..<count {
          for b in 0..<a where decoded[a] == decoded[b] {
            duplicate = keys[a]
            break search
          }
        }
      }
    } else {
      // Many keys (a notif record has 37): an open-addressing table of the raw keys' hashes,
      // with no String made; a key with an escape sends the object to decoded comparison, so
      // that the first key to repeat an earlier one is the one named either way.
      // A table whose probes run long (keys made to share their hashed bytes: the raw hash
      // reads only the first and last eight) gives way to the decoded comparison, whose hash
      // reads every byte with a per-process seed: the check stays linear whatever the keys.
      let escaped = Self.anyKeyEscaped(view, object: index, count: count)
      let raw = escaped ? .undecided : Self.firstRepeatedRawKey(view, object: index, count: count)
      if case .found(let key) = raw {
        duplicate = key
      } else if case .undecided = raw {
        var seen = Set<[UInt8]>(minimumCapacity: count)
        var key = index + 1
        for _ in 0..<count {
          if !seen.insert(view.stringBytes(key)).inserted {
            duplicate = key
            break
          }
          key = Int(tape[key + 1].next)
        }
      }
    }
    if let duplicate {
      throw .failed(
        JSONError(
          .duplicateKey, at: Int(tape[duplicate].start),
          "duplicate key \(Self.quoted(view.string(duplicate)))"))
    }
  }

  /// What `firstRepeatedRawKey` found.
  private enum RepeatedKey {
    /// No key repeats another.
    case none
    /// The first key that repeats an earlier one.
    case found(Int)
    /// The table took too many probes to tell: compare another way.
    case undecided
  }

  /// The first key of the object at `object` whose raw bytes repeat an earlier key's, found
  /// through a table of twice the keys' number on the stack; for objects with no escaped key.
  /// `.undecided` when the probes exceed a few per key.
  ///
  /// - Complexity: O(count) probes, each a hash compare or a compare of two keys' bytes.
  private static func firstRepeatedRawKey(_ view: JSONView, object: Int, count: Int)
    -> RepeatedKey
  {
    var size = 64
    while size < count * 2 { size *= 2 }
    guard let base = view.bytes.baseAddress else { return .none }
    // The slot is the top bits of the hash times 2^64 / phi (Fibonacci hashing): the low bits
    // of a raw hash of keys that differ in their last digits (`m00000001`, `m00000002`, ...)
    // cluster, and took 10 to 45 probes a key. At most half full, a table of distinct hashes
    // takes under two probes a key on average.
    let shift = UInt64(64 - size.trailingZeroBitCount)
    var probesLeft = 8 * count + 64
    // A slot is 8 bytes, a 32-bit hash and the key's token, the tape's 32-bit index: for an
    // object of millions of small members, the table is about the size of their bytes.
    return withUnsafeTemporaryAllocation(of: (hash: UInt32, key: Int32).self, capacity: size) {
      table in
      table.initialize(repeating: (0, -1))
      defer { table.deinitialize() }
      var key = object + 1
      for _ in 0..<count {
        let token = view.tokens[key]
        defer { key = Int(view.tokens[key + 1].next) }
        let hash = keyHash(base + Int(token.start) + 1, Int(token.end - token.start) - 2)
        let check = UInt32(truncatingIfNeeded: hash)
        var slot = Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> shift)
        while table[slot].key >= 0 {
          if table[slot].hash == check && keysEqual(view, Int(table[slot].key), key) {
            return .found(key)
          }
          probesLeft -= 1
          if probesLeft < 0 { return .undecided }
          slot = (slot + 1) & (size - 1)
        }
        table[slot] = (check, Int32(truncatingIfNeeded: key))
      }
      return .none
    }
  }

  /// Whether any key of the object at `object` has an escape.
  private static func anyKeyEscaped(_ view: JSONView, object: Int, count: Int) -> Bool {
    var key = object + 1
    for _ in 0..<count {
      if view.tokens[key].flag { return true }
      key = Int(view.tokens[key + 1].next)
    }
    return false
  }

  /// Whether two keys are the same sequence of code points once unescaped (RFC 8259 section
  /// 8.3): compared as bytes, never as `String`s, whose `==` is canonical equivalence.
  @inline(__always)
  private static func keysEqual(_ view: JSONView, _ a: Int, _ b: Int) -> Bool {
    let x = view.tokens[a]
    let y = view.tokens[b]
    if x.flag || y.flag {
      return view.stringBytes(a) == view.stringBytes(b)
    }
    let length = Int(x.end - x.start)
    guard length == Int(y.end - y.start), let base = view.bytes.baseAddress else { return false }
    return memcmp(base + Int(x.start), base + Int(y.start), length) == 0
  }

  // MARK: - Messages

  /// The stop for an unexpected byte at `c.i`: its error, or `.incomplete` if the message would
  /// quote more than has arrived.
  private static func unexpectedStop(_ c: Cursor, expecting what: String) -> Stop {
    if Self.messageNeedsMore(c, c.i) { return .incomplete }
    return .failed(Self.unexpected(c, c.i, expecting: what))
  }

  private static func wordStop(_ c: Cursor, _ start: Int) -> Stop {
    messageNeedsMore(c, start) ? .incomplete : .failed(wordError(c, start))
  }

  /// Whether the message about the byte at `i` quotes what runs to the end of the bytes so
  /// far: a UTF-8 sequence cut short, or (with `word`) a word shorter than a message quotes.
  /// More bytes are then asked for first, so that a message never depends on where a read
  /// ended.
  static func messageNeedsMore(_ c: Cursor, _ i: Int, word: Bool = true) -> Bool {
    guard !c.isFinal, i < c.n else { return false }
    let b = c.p[i]
    if b >= 0x80 {
      if case .truncated = utf8Length(c.p, i, c.n) { return true }
      return false
    }
    guard word && isWordByte(b) else { return false }
    var end = i
    while end < c.n && end - i < 40 && isWordByte(c.p[end]) { end += 1 }
    return end == c.n && end - i < 40
  }

  private static func unexpected(_ c: Cursor, _ i: Int, expecting what: String) -> JSONError {
    let b = c.p[i]
    if b >= 0x80, case .invalid = Self.utf8Length(c.p, i, c.n) {
      return Self.invalidUTF8(c, i)
    }
    switch b {
    case UInt8(ascii: "/"):
      return JSONError(.invalidJSON, at: i, "comments are not allowed in JSON")
    case UInt8(ascii: "'"):
      return JSONError(.invalidJSON, at: i, "strings must use double quotes, not single quotes")
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "_"), UInt8(ascii: "$"):
      var error = Self.wordError(c, i)
      if what == "a string key" { error.message = "object keys must be quoted: \(error.message)" }
      return error
    default:
      return JSONError(.invalidJSON, at: i, "expected \(what), found \(Self.describe(c, i))")
    }
  }

  private static func isWordByte(_ b: UInt8) -> Bool {
    switch b {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"):
      return true
    default: return false
    }
  }

  private static func wordError(_ c: Cursor, _ start: Int) -> JSONError {
    var end = start
    while end < c.n && end - start < 40 && isWordByte(c.p[end]) { end += 1 }
    let word = String(
      decoding: UnsafeBufferPointer(start: c.p + start, count: end - start), as: UTF8.self)
    return JSONError(
      .invalidJSON, at: start,
      "unexpected word '\(word)' (only true, false and null go unquoted; strings need double quotes)"
    )
  }

  /// Names the character at `i` for a message: `'x'`, `'”' (U+201D)`, `no-break space (U+00A0)`.
  static func describe(_ c: Cursor, _ i: Int, quoted open: String = "'", _ close: String = "'")
    -> String
  {
    guard i < c.n else { return "end of input" }
    let b = c.p[i]
    if b < 0x80 {
      if b > 0x20 && b < 0x7F { return open + String(Unicode.Scalar(b)) + close }
      return scalarName(UInt32(b))
    }
    guard case .valid(let length) = utf8Length(c.p, i, c.n) else {
      return "invalid UTF-8 byte \(hexByte(b))"
    }
    var buffer = ByteBuffer(capacity: 4)
    buffer.append(UnsafeRawBufferPointer(start: c.p + i, count: length))
    let text = buffer.text
    guard let scalar = text.unicodeScalars.first else { return "invalid UTF-8" }
    return scalarName(scalar.value, text: open + text + close)
  }

  /// Names a control character for a message that already says it is one: `line feed
  /// (U+000A)`, `tab (U+0009)`, `U+0001` (where `scalarName` says `control character U+0001`).
  static func controlName(_ value: UInt32) -> String {
    switch value {
    case 0x0A, 0x09: scalarName(value)
    default: codePoint(value)
    }
  }

  static func codePoint(_ value: UInt32) -> String {
    "U+" + String(value, radix: 16, uppercase: true).leftPadded(to: 4)
  }

  static func scalarName(_ value: UInt32, text: String? = nil) -> String {
    let code = codePoint(value)
    switch value {
    case 0x0A: return "line feed (\(code))"
    case 0x09: return "tab (\(code))"
    case 0x20: return "space"
    case 0xA0: return "no-break space (\(code)); JSON white space is space, tab, CR and LF only"
    case 0xFEFF: return "byte order mark (\(code))"
    case 0x200B: return "zero width space (\(code))"
    case 0x2018, 0x2019, 0x201C, 0x201D:
      return "curly quote \(text ?? "") (\(code)); JSON strings need straight double quotes"
    case ..<0x20, 0x7F: return "control character \(code)"
    default: return text.map { "\($0) (\(code))" } ?? code
    }
  }

  static func hexByte(_ b: UInt8) -> String {
    "0x" + String(b, radix: 16, uppercase: true).leftPadded(to: 2)
  }

  static func escapeText(_ unit: UInt32) -> String {
    "'\\u" + String(unit, radix: 16, uppercase: true).leftPadded(to: 4) + "'"
  }

  static func quoted(_ text: String) -> String {
    "'" + text + "'"
  }
}

extension String {
  func leftPadded(to width: Int, with pad: Character = "0") -> String {
    count >= width ? self : String(repeating: pad, count: width - count) + self
  }
}

/// Where a parse found the members of the outermost object that had expected keys
/// (`JSONParser.expectRootKeys`), for a reader that looks each key up
/// (`RecordFieldLocator.locate`).
public struct ExpectedKeyValues {
  /// The tape index of the value of each of the first members, which had the first expected
  /// keys in order (`JSONParser.expectedValueIndices`).
  public var prefix: UnsafeBufferPointer<Int32>
  /// When every member had an expected key, each a later one than the one before
  /// (`JSONParser.expectedKeysComplete`): the tape index of each expected key's value, -1
  /// where the object lacks the key; else nil.
  public var all: UnsafeBufferPointer<Int32>?

  public init(prefix: UnsafeBufferPointer<Int32>, all: UnsafeBufferPointer<Int32>? = nil) {
    self.prefix = prefix
    self.all = all
  }

  /// Nothing known: every key is looked up.
  public static var none: ExpectedKeyValues {
    ExpectedKeyValues(prefix: UnsafeBufferPointer(start: nil, count: 0))
  }
}
