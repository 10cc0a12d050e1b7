/// A fixed list of keys laid one after the other in memory of their own, with the offset each
/// starts at: what every hot loop that matches keys reads, as raw pointers. The parser's
/// expected keys (`JSONParser.expectRootKeys`), the record field lookup
/// (`RecordFieldLocator`), the group object's members (`GroupObjectMembers`) and the push
/// readers' key tables (`KeyTable`) keep their keys here.
///
/// Not arrays: an array of arrays makes each comparison retain and release the key it reads,
/// and when the keys are shared by threads every one of them writes the same reference count
/// (4.8% of notif-parse's samples once, a tenth of notif-summarize's instructions another
/// time). Written only by `init`, so it is safe to share between threads.
public final class PackedKeys: @unchecked Sendable {
  /// The number of keys.
  public let count: Int
  /// Every key's bytes; key `i` is `bytes[starts[i]..<starts[i + 1]]`.
  public let bytes: UnsafeRawPointer
  /// Where each key starts in `bytes`, and, at `count`, where the last ends.
  public let starts: UnsafePointer<Int>

  /// Lays out `keys`, in their order.
  public init(_ keys: [[UInt8]]) {
    count = keys.count
    let total = keys.reduce(0) { $0 + $1.count }
    let bytes = UnsafeMutableRawPointer.allocate(byteCount: max(total, 1), alignment: 8)
    let starts = UnsafeMutablePointer<Int>.allocate(capacity: keys.count + 1)
    var offset = 0
    for (i, key) in keys.enumerated() {
      starts[i] = offset
      UnsafeMutableRawBufferPointer(start: bytes + offset, count: key.count).copyBytes(from: key)
      offset += key.count
    }
    starts[keys.count] = offset
    self.bytes = UnsafeRawPointer(bytes)
    self.starts = UnsafePointer(starts)
  }

  deinit {
    bytes.deallocate()
    starts.deallocate()
  }

  /// The length of key `i`.
  @inlinable @inline(__always)
  public func length(_ i: Int) -> Int { starts[i &+ 1] &- starts[i] }

  /// The first byte of key `i`.
  @inlinable @inline(__always)
  public func start(_ i: Int) -> UnsafeRawPointer { bytes + starts[i] }

  /// Whether key `i` is `raw`, byte for byte.
  @inlinable @inline(__always)
  public func spells(_ i: Int, _ raw: UnsafeRawBufferPointer) -> Bool {
    let length = length(i)
    guard raw.count == length, let base = raw.baseAddress else { return raw.count == length }
    return RawBytes.equal(base, start(i), length)
  }

  /// The place of the first key that is `raw`, byte for byte, by a look at every key; nil
  /// when none is.
  @inlinable
  public func first(spelled raw: UnsafeRawBufferPointer) -> Int? {
    var i = 0
    while i < count {
      if spells(i, raw) { return i }
      i &+= 1
    }
    return nil
  }
}
