/// What a list shows where its notification ranks: a record, or a stack led by one.
public protocol Ranked {
  /// Where it ranks: its (leading) record's `created_at`, `relevance` and input order.
  var key: SortKey { get }
}

/// The first `limit` elements of a stream in feed order by a `Ranking`, kept in a heap: memory
/// for `limit` elements, whatever the length of the stream; without a limit, every element.
///
/// The heap's root is the element that comes last of those kept, so that one that comes
/// before it replaces it in O(log limit); one that does not is refused at the cost of one
/// comparison, before the caller builds anything for it (`admits`). `sorted` gives the
/// elements kept in feed or chat order. All of it is inlinable, to be specialized for its
/// elements where it is used: notif-group keeps one per group, on its hot path.
public struct TopList<Element: Ranked> {
  /// The most elements kept (at least 1); nil keeps them all.
  public let limit: Int?
  /// What ranks the elements.
  public let ranking: Ranking
  /// The elements kept. With a limit, a max-heap by "comes later in feed order": the root is
  /// the element to drop first. Without one, in the order inserted.
  @usableFromInline var heap: [Element] = []

  /// An empty list that keeps the first `limit` elements (at least 1) in feed order by
  /// `ranking`, or every element when `limit` is nil.
  @inlinable
  public init(limit: Int?, ranking: Ranking) {
    self.limit = limit.map { max($0, 1) }
    self.ranking = ranking
  }

  /// The list that inserting each of `elements` in turn into an empty one makes.
  ///
  /// - Complexity: O(n log limit) for n elements.
  @inlinable
  public init<S: Sequence<Element>>(_ elements: S, limit: Int?, ranking: Ranking) {
    self.init(limit: limit, ranking: ranking)
    for element in elements { insert(element) }
  }

  /// The number of elements kept.
  @inlinable public var count: Int { heap.count }

  /// The elements kept, in no particular order.
  @inlinable public var elements: [Element] { heap }

  /// Whether an element that ranks as `key` would be kept now: there is no limit, the list is
  /// not full, or `key` comes before the last element kept.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func admits(_ key: SortKey) -> Bool {
    guard let limit, heap.count >= limit else { return true }
    return ranking.precedes(key, heap[0].key)
  }

  /// Offers `element`: kept if it is among the first `limit` so far, at the expense of the last
  /// one kept when the list is full.
  ///
  /// - Complexity: O(log limit); O(1) without a limit.
  @inlinable
  public mutating func insert(_ element: Element) {
    guard let limit else {
      heap.append(element)
      return
    }
    let ranking = self.ranking
    if heap.count < limit {
      heap.append(element)
      heap.withUnsafeMutableBufferPointer { Self.siftUp($0, from: $0.count - 1, ranking) }
    } else if ranking.precedes(element.key, heap[0].key) {
      heap[0] = element
      heap.withUnsafeMutableBufferPointer { Self.siftDown($0, from: 0, ranking) }
    }
  }

  /// Drops every element kept, and the memory they took.
  @inlinable
  public mutating func removeAll() {
    heap = []
  }

  /// The elements kept, in `order`: feed order (the first first), or chat order.
  ///
  /// - Complexity: O(n log n) for the n elements kept.
  @inlinable
  public func sorted(_ order: ListOrder = .feed) -> [Element] {
    let ranking = self.ranking
    return heap.sorted { ranking.precedes($0.key, $1.key, in: order) }
  }

  // A max-heap by "comes later in feed order": the root is the element to drop first.
  @inlinable
  static func later(_ a: Element, _ b: Element, _ ranking: Ranking) -> Bool {
    ranking.precedes(b.key, a.key)
  }

  @inlinable
  static func siftUp(_ heap: UnsafeMutableBufferPointer<Element>, from: Int, _ ranking: Ranking) {
    var child = from
    while child > 0 {
      let parent = (child - 1) / 2
      guard later(heap[child], heap[parent], ranking) else { return }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  @inlinable
  static func siftDown(_ heap: UnsafeMutableBufferPointer<Element>, from: Int, _ ranking: Ranking) {
    var parent = from
    while true {
      var largest = parent
      let left = 2 * parent + 1
      if left < heap.count && later(heap[left], heap[largest], ranking) { largest = left }
      if left + 1 < heap.count && later(heap[left + 1], heap[largest], ranking) {
        largest = left + 1
      }
      if largest == parent { return }
      heap.swapAt(parent, largest)
      parent = largest
    }
  }
}
