import Foundation
import Testing

#if os(Linux)
  /// Every tool asks for a 1 MiB pipe at both ends of a pipeline (Linux's default is 64 KiB):
  /// on its standard output, for whatever stage reads it (jq, gzip, cat need not ask), and on
  /// its standard input. `notif-parse FILE | cat` took 1.77 s with a 64 KiB pipe, 1.02 s with
  /// 1 MiB (1M payloads).
  @Suite struct PipeSizeTests {
    /// F_GETPIPE_SZ, which Glibc's module leaves out (it is behind _GNU_SOURCE).
    static let getPipeSize: Int32 = 1032

    /// The size a pipe can be given without privileges here: 1 MiB, or less where
    /// `/proc/sys/fs/pipe-max-size` says so (then the pipe stays at its default).
    static var expectedSize: Int32 {
      let text = (try? String(contentsOfFile: "/proc/sys/fs/pipe-max-size", encoding: .utf8))
      let maximum = text.flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
      return (maximum ?? 0) >= 1 << 20 ? 1 << 20 : 65536
    }

    @Test(arguments: BehaviorTests.tools)
    func standardOutputIsWidened(_ tool: String) throws {
      let process = Process()
      process.executableURL = Binaries.url(tool)
      process.arguments = ["--version"]
      process.environment = ["TZ": "UTC", "LC_ALL": "C"]
      let output = Pipe()
      process.standardInput = FileHandle.nullDevice
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      let size = fcntl(output.fileHandleForReading.fileDescriptor, Self.getPipeSize)
      #expect(process.terminationStatus == 0)
      #expect(size == Self.expectedSize, "\(tool): a pipe of \(size) bytes on its output")
    }

    @Test func standardInputIsWidened() throws {
      let process = Process()
      process.executableURL = Binaries.url("notif-parse")
      process.arguments = ["--now", "2026-11-22T09:00:00Z"]
      process.environment = ["TZ": "UTC", "LC_ALL": "C"]
      let input = Pipe()
      process.standardInput = input
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      // The reading end is the tool's once it asked; closing ours ends its input.
      var size: Int32 = 0
      let deadline = Date().addingTimeInterval(20)
      let fd = input.fileHandleForWriting.fileDescriptor
      while Date() < deadline {
        size = fcntl(fd, Self.getPipeSize)
        if size == Self.expectedSize { break }
        usleep(10_000)
      }
      try input.fileHandleForWriting.close()
      process.waitUntilExit()
      #expect(size == Self.expectedSize, "a pipe of \(size) bytes on notif-parse's input")
    }
  }
#endif
