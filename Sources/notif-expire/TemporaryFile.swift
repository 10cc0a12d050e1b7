import NotifJSON
import NotifModel

/// A temporary file with no name: made in a directory and unlinked at once, so nothing is left
/// behind however the process ends. Read and written through its descriptor only.
enum TemporaryFile {
  /// Makes one in `directory`; returns its descriptor and the name it briefly had.
  ///
  /// - Throws: `SystemError` naming the file it tried to make.
  static func make(in directory: String, prefix: String) throws(SystemError) -> (
    fd: Int32, name: String
  ) {
    var template = Array((directory + "/" + prefix + ".XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      return mkstemp(base)
    }
    let name = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard fd >= 0 else {
      throw SystemError(path: name, doing: "cannot create a temporary file", errno: errno)
    }
    unlink(name)
    return (fd, name)
  }
}
