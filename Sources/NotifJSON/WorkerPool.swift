/// A fixed set of worker threads, each with its own state, that do jobs in the order they are
/// submitted; the submitting thread waits for each job's results, in that order too.
///
/// POSIX threads, not Swift concurrency: the jobs are CPU-bound loops over bytes that must not
/// be suspended, the pool is small and fixed, and a worker's state (a parser with its tape, a
/// processor with its buffers) stays with one thread for the whole run.
///
/// A job is an object the submitting thread fills, hands in with `submit(_:)`, and reads again
/// once `wait(for:)` returns; between the two, only the worker touches it. The lock orders those
/// accesses, so the job needs no lock of its own, and the pool, not the job, knows which jobs
/// are in flight. A job may be submitted again once done.
///
/// Call `shutdown()` when done: the threads hold the pool until they end.
public final class WorkerPool<Job: AnyObject, Worker: ~Copyable>: @unchecked Sendable {
  // In allocated memory: a pthread object must not move, and Swift does not promise a stable
  // address for `&storedProperty`.
  private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  /// Signalled when a job is queued, or when the pool is stopping.
  private let available = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  /// Broadcast when a job is done.
  private let finished = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private let work: @Sendable (Job, inout Worker) -> Void
  // Guarded by `lock`.
  private var queue: [Job] = []  // jobs from `head` on wait for a worker, in submission order
  private var head = 0
  // Jobs queued or being worked on, oldest first: a few, so an array. (A Set in a generic class
  // has the runtime check `Hashable` when it lays the class out: a scan of every conformance in
  // the binary that faulted in 0.4 MB of it.)
  private var inFlight: [ObjectIdentifier] = []
  private var stopping = false
  // Touched by the owning thread only.
  private var threads: [pthread_t] = []

  /// Starts `threads` threads; each makes its state with `makeWorker(index)` (index
  /// `0..<threads`), then does `work` on the jobs it takes.
  ///
  /// The state is made on its own thread, so that what it allocates comes from that thread's
  /// malloc arena, where its later growth happens too. Fewer threads run if the system refuses
  /// some: see `count`.
  public init(
    threads: Int, makeWorker: @escaping @Sendable (_ index: Int) -> Worker,
    work: @escaping @Sendable (_ job: Job, _ worker: inout Worker) -> Void
  ) {
    self.work = work
    pthread_mutex_init(lock, nil)
    pthread_cond_init(available, nil)
    pthread_cond_init(finished, nil)
    queue.reserveCapacity(16)
    for index in 0..<max(threads, 0) {
      if let thread = Self.start(self, index: index, makeWorker) {
        self.threads.append(thread)
      }
    }
  }

  /// Starts a thread that makes its state and runs `pool.run` with it; nil if the system
  /// refused.
  private static func start(
    _ pool: WorkerPool, index: Int, _ makeWorker: @escaping @Sendable (Int) -> Worker
  ) -> pthread_t? {
    startThread {
      // A local: an inout access to a class's property would stay in the thread's dynamic
      // exclusivity set for the whole run, and every access in the jobs' loops would then
      // walk one more entry.
      var worker = makeWorker(index)
      pool.run(&worker)
    }
  }

  deinit {
    pthread_cond_destroy(finished)
    pthread_cond_destroy(available)
    pthread_mutex_destroy(lock)
    finished.deallocate()
    available.deallocate()
    lock.deallocate()
  }

  /// The number of threads running: fewer than asked if the system refused some.
  public var count: Int { threads.count }

  /// Whether any thread runs; with none, a submitted job would never be done, so the caller
  /// does the work itself.
  public var hasWorkers: Bool { !threads.isEmpty }

  /// Queues `job` for the next free worker.
  ///
  /// - Precondition: `job` is not queued or being worked on.
  public func submit(_ job: Job) {
    let id = ObjectIdentifier(job)
    pthread_mutex_lock(lock)
    precondition(!inFlight.contains(id), "WorkerPool: a job submitted again before it was done")
    inFlight.append(id)
    queue.append(job)
    pthread_cond_signal(available)
    pthread_mutex_unlock(lock)
  }

  /// Returns once a worker has done `job`, whose results this thread may then read: at once if
  /// `job` is not queued or being worked on (done already, or never submitted).
  public func wait(for job: Job) {
    let id = ObjectIdentifier(job)
    pthread_mutex_lock(lock)
    while inFlight.contains(id) {
      pthread_cond_wait(finished, lock)
    }
    pthread_mutex_unlock(lock)
  }

  /// Lets the workers finish the queued jobs, then ends the threads and waits for them.
  public func shutdown() {
    pthread_mutex_lock(lock)
    stopping = true
    pthread_cond_broadcast(available)
    pthread_mutex_unlock(lock)
    for thread in threads {
      pthread_join(thread, nil)
    }
    threads.removeAll()
  }

  /// A worker thread's loop: take the oldest job, do it, mark it done.
  private func run(_ worker: inout Worker) {
    while let job = next() {
      work(job, &worker)
      pthread_mutex_lock(lock)
      if let done = inFlight.firstIndex(of: ObjectIdentifier(job)) {
        inFlight.remove(at: done)
      }
      pthread_cond_broadcast(finished)
      pthread_mutex_unlock(lock)
    }
  }

  /// The oldest queued job, waiting for one; nil once the pool is stopping and none is left.
  private func next() -> Job? {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    while head == queue.count && !stopping {
      pthread_cond_wait(available, lock)
    }
    guard head < queue.count else { return nil }
    let job = queue[head]
    head += 1
    if head == queue.count {
      queue.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 64 && head * 2 >= queue.count {
      // Jobs keep coming faster than they are taken: drop the taken ones now and then.
      queue.removeFirst(head)
      head = 0
    }
    return job
  }
}

/// Starts a POSIX thread that runs `body`; nil if the system refused.
func startThread(_ body: @escaping () -> Void) -> pthread_t? {
  let main = Unmanaged.passRetained(ThreadMain(body))
  var thread = pthread_t()
  let started = pthread_create(
    &thread, nil,
    { raw in
      guard let raw else { return nil }
      Unmanaged<ThreadMain>.fromOpaque(raw).takeRetainedValue().body()
      return nil
    }, main.toOpaque())
  guard started == 0 else {
    main.release()
    return nil
  }
  return thread
}

/// What a thread runs. Not generic: a C start routine cannot name a generic type.
private final class ThreadMain {
  let body: () -> Void

  init(_ body: @escaping () -> Void) {
    self.body = body
  }
}
