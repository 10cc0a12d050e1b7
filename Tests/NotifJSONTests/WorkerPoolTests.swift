import Testing

@testable import NotifJSON

/// A tiny job: a number in, its square out, and which worker did it.
private final class Square {
  var input = 0
  var output = -1
  /// The worker's index, and how many jobs that worker had done before this one.
  var worker = -1
  var ordinal = -1
  /// Whether the worker ran on the thread that made its state.
  var onOwnThread = false
}

/// A worker's state: its index, the thread that made it, and what it has done. Not copyable,
/// like the states the tools give their workers.
private struct SquareWorker: ~Copyable {
  let index: Int
  let thread = pthread_self()
  var done = 0
  /// The inputs this worker took, in the order it took them.
  var inputs: [Int] = []

  init(index: Int) {
    self.index = index
  }

  mutating func square(_ job: Square) {
    job.onOwnThread = pthread_equal(thread, pthread_self()) != 0
    job.output = job.input * job.input
    job.worker = index
    job.ordinal = done
    done += 1
    inputs.append(job.input)
    if inputs.count == 1 || inputs[inputs.count - 2] < job.input {
      return
    }
    job.output = -2  // taken out of order: a later job before an earlier one
  }
}

private func makePool(threads: Int) -> WorkerPool<Square, SquareWorker> {
  WorkerPool(threads: threads, makeWorker: { SquareWorker(index: $0) }) { job, worker in
    worker.square(job)
  }
}

@Suite struct WorkerPoolTests {
  @Test(arguments: 1...4)
  func returnsEveryResultInSubmissionOrder(threads: Int) {
    let pool = makePool(threads: threads)
    defer { pool.shutdown() }
    #expect(pool.count == threads)
    let jobs = (0..<5000).map { index in
      let job = Square()
      job.input = index
      return job
    }
    for job in jobs { pool.submit(job) }
    for (index, job) in jobs.enumerated() {
      pool.wait(for: job)
      #expect(job.output == index * index, "job \(index)")
    }
  }

  /// The way the tools use it: a few jobs in flight, each object submitted again once its
  /// results were read.
  @Test(arguments: 1...4)
  func reusesJobsOnceWaitedFor(threads: Int) {
    let pool = makePool(threads: threads)
    defer { pool.shutdown() }
    let ring = (0..<(2 * threads + 1)).map { _ in Square() }
    var wrong: [Int] = []
    var submitted = 0
    var waited = 0
    while waited < 20_000 {
      if submitted - waited == ring.count || submitted == 20_000 {
        let job = ring[waited % ring.count]
        pool.wait(for: job)
        if job.input != waited || job.output != waited * waited { wrong.append(waited) }
        job.output = -1
        waited += 1
      } else {
        let job = ring[submitted % ring.count]
        job.input = submitted
        pool.submit(job)
        submitted += 1
      }
    }
    #expect(wrong.count == 0, "wrong results, the first: \(wrong.prefix(10))")
  }

  @Test(arguments: 1...4)
  func givesEachThreadItsOwnState(threads: Int) {
    let pool = makePool(threads: threads)
    let jobs = (0..<4000).map { index in
      let job = Square()
      job.input = index
      return job
    }
    for job in jobs { pool.submit(job) }
    for job in jobs { pool.wait(for: job) }
    pool.shutdown()
    // A worker that shared its state would skip ordinals that another counted.
    var ordinals = [[Int]](repeating: [], count: threads)
    for job in jobs {
      #expect(job.onOwnThread)
      #expect((0..<threads).contains(job.worker))
      guard (0..<threads).contains(job.worker) else { continue }
      ordinals[job.worker].append(job.ordinal)
    }
    for (worker, seen) in ordinals.enumerated() {
      let skipped = seen.indices.first { seen[$0] != $0 }
      #expect(skipped == nil, "worker \(worker)")
    }
    #expect(ordinals.map(\.count).reduce(0, +) == jobs.count)
  }

  @Test func oneThreadTakesJobsFirstInFirstOut() {
    let pool = makePool(threads: 1)
    defer { pool.shutdown() }
    let jobs = (0..<1000).map { index in
      let job = Square()
      job.input = index
      return job
    }
    for job in jobs { pool.submit(job) }
    for job in jobs { pool.wait(for: job) }
    let outOfOrder = jobs.indices.first { jobs[$0].ordinal != $0 }
    #expect(outOfOrder == nil)
  }

  @Test(arguments: 0...4)
  func shutsDownWithAnEmptyQueue(threads: Int) {
    let pool = makePool(threads: threads)
    #expect(pool.count == threads)
    #expect(pool.hasWorkers == (threads > 0))
    pool.shutdown()
    #expect(pool.count == 0)
    #expect(!pool.hasWorkers)
  }

  @Test(arguments: 1...4)
  func finishesQueuedJobsBeforeShuttingDown(threads: Int) {
    let pool = makePool(threads: threads)
    let jobs = (0..<500).map { index in
      let job = Square()
      job.input = index
      return job
    }
    for job in jobs { pool.submit(job) }
    pool.shutdown()
    let undone = jobs.filter { $0.output != $0.input * $0.input }.count
    #expect(undone == 0)
    if undone == 0 {
      for job in jobs { pool.wait(for: job) }  // already done: returns at once
    }
  }

  /// notif-parse waits again for a chunk whose results it did not use, before reading on.
  @Test(arguments: 1...4)
  func waitsAgainOrForAJobNeverSubmittedAtOnce(threads: Int) {
    let pool = makePool(threads: threads)
    defer { pool.shutdown() }
    let job = Square()
    job.input = 7
    pool.submit(job)
    pool.wait(for: job)
    pool.wait(for: job)
    #expect(job.output == 49)
    let never = Square()
    pool.wait(for: never)
    #expect(never.output == -1)
    job.input = 8
    pool.submit(job)
    pool.wait(for: job)
    #expect(job.output == 64)
  }

  /// What each worker's thread made: a slot per worker index, written only by the thread that
  /// makes that worker, and read after `shutdown` has joined the threads. No lock: a `Mutex`
  /// shared by the threads, even a class's `let`, was still reported by ThreadSanitizer as a
  /// Swift access race when two threads made their workers at once.
  private final class Made: @unchecked Sendable {
    static let count = 3
    /// How many workers of each index were made.
    let made = UnsafeMutablePointer<Int>.allocate(capacity: count)
    /// Whether the worker of each index was made on the caller's thread.
    let onCaller = UnsafeMutablePointer<Bool>.allocate(capacity: count)

    init() {
      made.initialize(repeating: 0, count: Self.count)
      onCaller.initialize(repeating: false, count: Self.count)
    }

    deinit {
      made.deallocate()
      onCaller.deallocate()
    }
  }

  @Test func makesOneStatePerThreadOnThatThread() {
    let caller = pthread_self()
    let made = Made()
    let pool = WorkerPool<Square, SquareWorker>(
      threads: Made.count,
      makeWorker: { index in
        made.made[index] += 1
        made.onCaller[index] = pthread_equal(pthread_self(), caller) != 0
        return SquareWorker(index: index)
      }
    ) { job, worker in worker.square(job) }
    pool.shutdown()
    #expect(Array(UnsafeBufferPointer(start: made.made, count: Made.count)) == [1, 1, 1])
    #expect(!UnsafeBufferPointer(start: made.onCaller, count: Made.count).contains(true))
  }
}

/// `OrderedJobs`: the jobs come back in the order they went in, never more than `depth` in
/// flight, done by the workers (from the second job on) or, without any, by the submitting
/// thread.
@Suite struct OrderedJobsTests {
  private func makeJobs(threads: Int, depth: Int) -> OrderedJobs<Square, SquareWorker> {
    OrderedJobs(threads: threads, depth: depth, makeWorker: { SquareWorker(index: $0) }) {
      job, worker in
      worker.square(job)
    }
  }

  @Test(arguments: [(0, 1), (0, 3), (1, 1), (2, 3), (3, 8)])
  func handsBackEveryJobInOrderWithAtMostDepthInFlight(threads: Int, depth: Int) {
    let jobs = makeJobs(threads: threads, depth: depth)
    var handedBack: [Int] = []
    var submitted = 0
    var made = 0
    let check = { (job: Square) in
      #expect(job.output == job.input * job.input, "job \(job.input)")
      handedBack.append(job.input)
    }
    for index in 0..<2000 {
      let job: Square
      if let again = jobs.reusable() {
        job = again
      } else {
        job = Square()
        made += 1
      }
      job.input = index
      job.output = -1
      jobs.submit(job, then: check)
      submitted += 1
      // The threads start with the second job.
      let hasWorkers = jobs.hasWorkers
      #expect(hasWorkers == (threads > 0 && index > 0))
      // Those not handed back yet are the ones in flight.
      #expect(submitted - handedBack.count <= (hasWorkers ? depth - 1 : 0))
    }
    jobs.finish(then: check)
    let idle = jobs.isIdle
    #expect(idle)
    #expect(handedBack == Array(0..<2000))
    // Done jobs are filled again: no more objects than can be in flight at once.
    #expect(made <= depth + 1)
  }

  @Test func withoutWorkersTheSubmittingThreadDoesEachJobAtOnce() {
    let jobs = makeJobs(threads: 0, depth: 4)
    let job = Square()
    job.input = 7
    var seen = false
    jobs.submit(job) { done in
      seen = true
      #expect(done.output == 49)
      #expect(done.worker == 0)  // the submitting thread's own state: index `threads`
      #expect(done.onOwnThread)
    }
    let idle = jobs.isIdle
    #expect(seen)
    #expect(idle)
  }
}
