/// The first `limit` elements of a stream in an order, kept in a heap: memory for `limit`
/// elements, whatever the length of the stream.
///
/// The heap's root is the element that comes last of those kept, so that one that comes
/// before it replaces it in O(log limit); one that does not is refused at the cost of one
/// comparison, before the caller builds anything for it (`admits`). `sorted()` gives the
/// elements kept, first first.
public struct TopList<Element> {
  /// The most elements kept.
  public let limit: Int
  /// Whether `a` comes before `b`; a strict order, with no ties (break them by input order).
  private let precedes: (Element, Element) -> Bool
  private var heap: [Element] = []

  /// An empty list that keeps the `limit` first elements (at least 1) by `precedes`.
  public init(limit: Int, by precedes: @escaping (Element, Element) -> Bool) {
    self.limit = max(limit, 1)
    self.precedes = precedes
    heap.reserveCapacity(min(self.limit, 1 << 16))
  }

  /// The number of elements kept.
  public var count: Int { heap.count }

  /// Whether an element that compares as `probe` would be kept now: the list is not full, or
  /// `probe` comes before the last element kept.
  ///
  /// - Complexity: O(1).
  public func admits(_ probe: Element) -> Bool {
    heap.count < limit || precedes(probe, heap[0])
  }

  /// Offers `element`: kept if it is among the first `limit` so far, at the expense of the last
  /// one kept when the list is full.
  ///
  /// - Complexity: O(log limit).
  public mutating func insert(_ element: Element) {
    if heap.count < limit {
      heap.append(element)
      siftUp(from: heap.count - 1)
    } else if precedes(element, heap[0]) {
      heap[0] = element
      siftDown(from: 0)
    }
  }

  /// The elements kept, first first.
  ///
  /// - Complexity: O(limit log limit).
  public func sorted() -> [Element] {
    heap.sorted(by: precedes)
  }

  // A max-heap by "comes later": the root is the element to drop first.
  private func later(_ a: Int, _ b: Int) -> Bool { precedes(heap[b], heap[a]) }

  private mutating func siftUp(from index: Int) {
    var child = index
    while child > 0 {
      let parent = (child - 1) / 2
      guard later(child, parent) else { return }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private mutating func siftDown(from index: Int) {
    var parent = index
    while true {
      var largest = parent
      let left = 2 * parent + 1
      if left < heap.count && later(left, largest) { largest = left }
      if left + 1 < heap.count && later(left + 1, largest) { largest = left + 1 }
      if largest == parent { return }
      heap.swapAt(parent, largest)
      parent = largest
    }
  }
}
