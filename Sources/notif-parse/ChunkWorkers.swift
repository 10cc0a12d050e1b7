import NotifJSON
import NotifModel

/// What a worker made of a chunk of the input (`FileChunk`): the record lines, the
/// diagnostics as values (the writing thread reports them, in input order, through the run's
/// `Reporter`), and what they counted.
struct ChunkResults {
  var out = ByteBuffer(capacity: 64 * 1024)
  var found = FoundDiagnostics()
  var tally = Tally()
}

/// The worker threads of notif-parse: each reads chunks with its own `RecordProcessor`.
typealias ChunkWorkers = WorkerPool<FileChunk<ChunkResults>, RecordProcessor>

extension WorkerPool where Job == FileChunk<ChunkResults>, Worker == RecordProcessor {
  /// Starts one thread per processor.
  convenience init(processors: [RecordProcessor]) {
    self.init(threads: processors.count, makeWorker: { processors[$0] }) { chunk, processor in
      processor.process(chunk)
    }
  }
}

extension RecordProcessor {
  /// Reads the texts of `chunk` as one reader of the whole input would, leaving what it made
  /// in the chunk's results (emptied first, their buffers kept).
  mutating func process(_ chunk: FileChunk<ChunkResults>) {
    chunk.results.out.removeAll()
    chunk.results.found.removeAll()
    chunk.results.tally = Tally()
    chunk.read(maxRecordBytes: configuration.maxRecordBytes) { reader in
      Self.readAll(&reader, with: &self, into: &chunk.results)
    }
  }

  /// Reads every text of `reader`, a reader of bytes in memory (a chunk's, or `--fix`'s
  /// whole file), through `processor`, into `results`.
  static func readAll(
    _ reader: inout RecordReader, with processor: inout RecordProcessor,
    into results: inout ChunkResults
  ) {
    // A reader of bytes in memory has no file: it never reads, so it cannot fail.
    while let event = try? reader.next() {
      if case .end = event { return }
      processor.handle(
        event, of: reader, out: &results.out, found: &results.found, tally: &results.tally)
    }
  }
}
