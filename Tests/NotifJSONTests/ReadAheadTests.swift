import Testing

@testable import NotifJSON

/// A batch of numbers, and the thread that filled it.
private final class Numbers {
  var values: [Int] = []
  var filledBy = pthread_self()
}

/// Counts from 0 to `end`, `perBatch` numbers a batch. Not copyable, like the tools' fillers.
private struct Counter: ~Copyable, BatchFiller {
  let end: Int
  let perBatch: Int
  var next = 0

  mutating func fill(_ batch: Numbers) -> Bool {
    batch.values.removeAll()
    batch.filledBy = pthread_self()
    while next < end && batch.values.count < perBatch {
      batch.values.append(next)
      next += 1
    }
    return next < end
  }
}

@Suite struct ReadAheadTests {
  private static func batches(_ count: Int) -> [Numbers] { (0..<count).map { _ in Numbers() } }

  /// Takes every batch: the numbers in the order they were made, and whether another thread
  /// filled any batch.
  private static func drain(_ ahead: ReadAhead<Counter>) -> (values: [Int], elsewhere: Bool) {
    var values: [Int] = []
    var elsewhere = false
    while let batch = ahead.next() {
      values += batch.values
      elsewhere = elsewhere || pthread_equal(batch.filledBy, pthread_self()) == 0
    }
    return (values, elsewhere)
  }

  @Test(arguments: [true, false])
  func everyBatchComesOnceInOrder(threaded: Bool) {
    let ahead = ReadAhead(
      Counter(end: 100_003, perBatch: 1000), batches: Self.batches(3), threaded: threaded)
    #expect(ahead.isThreaded == threaded)
    let (values, elsewhere) = Self.drain(ahead)
    #expect(values == Array(0..<100_003))
    #expect(elsewhere == threaded)
    #expect(ahead.next() == nil)
  }

  @Test func anEmptyInputGivesOneEmptyBatch() {
    let ahead = ReadAhead(Counter(end: 0, perBatch: 10), batches: Self.batches(2))
    #expect(Self.drain(ahead).values.isEmpty)
  }

  @Test func oneBatchCannotBeReadAhead() {
    let ahead = ReadAhead(Counter(end: 25, perBatch: 10), batches: Self.batches(1), threaded: true)
    #expect(!ahead.isThreaded)
    #expect(Self.drain(ahead).values == Array(0..<25))
  }

  @Test(arguments: [true, false])
  func stoppingEndsTheBatches(threaded: Bool) {
    let ahead = ReadAhead(
      Counter(end: 1_000_000, perBatch: 10), batches: Self.batches(2), threaded: threaded)
    #expect(ahead.next()?.values == Array(0..<10))
    ahead.stop()
    #expect(ahead.next() == nil)
    ahead.stop()
  }
}
