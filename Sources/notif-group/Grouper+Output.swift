import NotifJSON
import NotifListing

/// A run of group objects, next to each other in the output, that a thread writes
/// (`Grouper.writeOnThreads`).
final class GroupObjects: @unchecked Sendable {
  /// The groups, as a grouper's place among the parts and its number there, in output order.
  var groups: [(part: Int, index: Int)] = []
  /// About how many bytes their objects take (`Grouper.objectSize`).
  var size = 0
  /// Their objects, one after the other, each on its line.
  var bytes = ByteBuffer(capacity: 0)
  /// Whether a sum of each one's weights was saturated, in order.
  var weightPassed: [Bool] = []
  /// Why a leading record could not be read back from its file (`RecordStore.read`): the
  /// objects before it are in `bytes`, and the run stops after them.
  var failure: SystemError?

  func reset() {
    groups.removeAll(keepingCapacity: true)
    size = 0
    bytes.removeAll()
    weightPassed.removeAll(keepingCapacity: true)
    failure = nil
  }
}

/// The groupers whose objects the threads write, and the `grouping` object each ends with.
// `@unchecked Sendable`: the threads only read them, and no thread changes them meanwhile.
final class SharedGroupers: @unchecked Sendable {
  let parts: [Grouper]
  let grouping: ByteBuffer

  init(_ parts: [Grouper], grouping: ByteBuffer) {
    self.parts = parts
    self.grouping = grouping
  }
}

/// A thread that writes group objects of the groupers it shares with the others.
struct GroupObjectWriter {
  let shared: SharedGroupers
  private var out = ByteBuffer(capacity: Grouper.pieceSize + 4096)

  init(_ shared: SharedGroupers) {
    self.shared = shared
  }

  mutating func write(_ objects: GroupObjects) {
    objects.bytes.removeAll()
    objects.weightPassed.removeAll(keepingCapacity: true)
    let grouping = shared.grouping
    // Appending to memory cannot fail: reading a leading record back can, before a byte of
    // its object is written, and the objects before it go out. The groupers are borrowed
    // where they lie: `parts[part]` of the array copied one for each call, retaining each of
    // its references, which both threads share (with 71,000 groups, 9% of -j2's time).
    let failure = shared.parts.withUnsafeBufferPointer { parts -> SystemError? in
      do throws(SystemError) {
        for (part, index) in objects.groups {
          try parts[part].writeObject(index, grouping: grouping, into: &out) {
            objects.bytes.append($0)
          }
          objects.weightPassed.append(parts[part].weightPassed(index))
        }
      } catch {
        return error
      }
      return nil
    }
    if let failure { objects.failure = failure }
    objects.bytes.append(out)
    out.removeAll()
  }
}

extension Grouper {
  /// How many bytes of group objects a thread writes at a time.
  static let objectsPerJob = 256 * 1024

  /// Writes the groups of `parts` as `write(_:threads:_:ended:)` does, on `threads` threads:
  /// this one takes the groups in output order and hands runs of them to the threads, and the
  /// objects they wrote to `emit`, in order. A group whose object would be larger than a
  /// piece (`pieceSize`: its records, with items) is written by this thread, in pieces, after
  /// every run before it: no group object is held whole.
  ///
  /// On two cores the objects, a fifth of notif-group's time with 49,000 groups, are no longer
  /// written by one thread while the others wait.
  static func writeOnThreads(
    _ parts: [Grouper], grouping: ByteBuffer, threads: Int,
    _ emit: (UnsafeRawBufferPointer) throws(SystemError) -> Void, ended: (Bool) -> Void
  ) throws(SystemError) {
    let shared = SharedGroupers(parts, grouping: grouping)
    let jobs = OrderedJobs<GroupObjects, GroupObjectWriter>(
      threads: threads, depth: 4, makeWorker: { _ in GroupObjectWriter(shared) },
      work: { objects, writer in writer.write(objects) })
    func handOut(_ objects: GroupObjects) throws(SystemError) {
      try flush(&objects.bytes, emit)
      for passed in objects.weightPassed { ended(passed) }
      if let failure = objects.failure { throw failure }
    }
    func fresh() -> GroupObjects {
      let objects = jobs.reusable() ?? GroupObjects()
      objects.reset()
      return objects
    }
    var objects = fresh()
    var out = ByteBuffer(capacity: 0)
    var merged = MergedOrder(parts)
    while let (part, index) = merged.next(parts) {
      let size = parts[part].objectSize(index)
      guard size < pieceSize else {
        if !objects.groups.isEmpty {
          try jobs.submit(objects, then: handOut)
          objects = fresh()
        }
        try jobs.finish(then: handOut)
        try parts[part].writeObject(index, grouping: grouping, into: &out, emit)
        try flush(&out, emit)
        ended(parts[part].weightPassed(index))
        continue
      }
      objects.groups.append((part, index))
      objects.size += size
      if objects.size >= objectsPerJob {
        try jobs.submit(objects, then: handOut)
        objects = fresh()
      }
    }
    if !objects.groups.isEmpty { try jobs.submit(objects, then: handOut) }
    try jobs.finish(then: handOut)
  }
}
