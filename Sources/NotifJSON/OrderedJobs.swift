/// Jobs done on a `WorkerPool` while the submitting thread goes on, handed back to it in the
/// order they were submitted: what a sweep needs that reads its input in batches of lines and
/// writes its output in input order (notif-expire, notif-mark), and notif-group's threads that
/// write the group objects in output order.
///
/// At most `depth` jobs are in flight: submitting one more first hands back the oldest, so
/// memory stays a few jobs whatever the input. Without a worker thread (one core, or the system
/// refused them), the submitting thread does each job as it is submitted, with a worker state of
/// its own. Done jobs are kept for reuse (`reusable()`), so their storage is allocated once.
/// The threads start with the second job: a run of one job (a small input) starts none, and
/// costs what one thread costs.
///
/// A class, so that its `deinit` (which ends the threads) runs however the owner's scope ends.
/// As a noncopyable struct in a local that closures capture, the whole-module optimized build
/// (the fuzzer's) never ran that deinit, and left two threads waiting per run.
public final class OrderedJobs<Job: AnyObject, Worker: ~Copyable> {
  /// Started with the second job (`submit`).
  private var pool: WorkerPool<Job, Worker>?
  private let threads: Int
  private let makeWorker: @Sendable (Int) -> Worker
  private let work: @Sendable (Job, inout Worker) -> Void
  private var submitted = 0
  /// The state of the submitting thread, when it does the jobs itself.
  private var inline: Worker
  private var inFlight: [Job] = []
  private var done: [Job] = []
  /// The most jobs in flight at once.
  public let depth: Int

  /// Jobs for `threads` worker threads (see `WorkerPool.init`), started with the second job,
  /// each with the state `makeWorker(index)` makes; the submitting thread's own state is
  /// `makeWorker(threads)`, made now.
  public init(
    threads: Int, depth: Int, makeWorker: @escaping @Sendable (_ index: Int) -> Worker,
    work: @escaping @Sendable (_ job: Job, _ worker: inout Worker) -> Void
  ) {
    self.threads = max(threads, 0)
    self.makeWorker = makeWorker
    self.work = work
    inline = makeWorker(max(threads, 0))
    self.depth = max(depth, 1)
  }

  deinit {
    pool?.shutdown()
  }

  /// Whether worker threads do the jobs now (else the submitting thread does): from the second
  /// job on, if any were asked for and the system started them.
  public var hasWorkers: Bool { pool?.hasWorkers ?? false }

  /// Whether no job is in flight.
  public var isIdle: Bool { inFlight.isEmpty }

  /// A done job to fill again, if one was kept.
  public func reusable() -> Job? { done.popLast() }

  /// Keeps `job`, taken for reuse but not submitted, for a later `reusable()`.
  public func putBack(_ job: Job) { done.append(job) }

  /// Hands `job` to a worker; once `depth` jobs are in flight, waits for the oldest and calls
  /// `body` with it. Without workers (and for the first job), does `job` here and calls `body`
  /// with it.
  ///
  /// A job that `body` throws on is not kept for reuse.
  public func submit<E: Error>(_ job: Job, then body: (Job) throws(E) -> Void)
    throws(E)
  {
    submitted += 1
    if pool == nil && threads > 0 && submitted >= 2 {
      pool = WorkerPool(threads: threads, makeWorker: makeWorker, work: work)
    }
    guard let pool, pool.hasWorkers else {
      work(job, &inline)
      try body(job)
      done.append(job)
      return
    }
    pool.submit(job)
    inFlight.append(job)
    if inFlight.count >= depth {
      try handBackOldest(body)
    }
  }

  /// Waits for every job in flight and calls `body` with each, oldest first.
  public func finish<E: Error>(then body: (Job) throws(E) -> Void) throws(E) {
    while !inFlight.isEmpty {
      try handBackOldest(body)
    }
  }

  private func handBackOldest<E: Error>(_ body: (Job) throws(E) -> Void) throws(E) {
    let oldest = inFlight.removeFirst()
    pool?.wait(for: oldest)
    try body(oldest)
    done.append(oldest)
  }
}
