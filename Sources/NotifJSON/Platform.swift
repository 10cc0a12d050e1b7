// The C library, re-exported: the modules and tools above NotifJSON call read(2), write(2),
// open(2) and the POSIX threads through it, so no file of theirs repeats the platform switch
// (nor do the other files of NotifJSON: the import is the module's).
#if canImport(Glibc)
  @_exported import Glibc
#elseif canImport(Musl)
  @_exported import Musl
#elseif canImport(Darwin)
  @_exported import Darwin
#endif

// Where a type's own `open`, `read`, `write` or `close` hides the C library's (a sweep's passes,
// an input, the writer), the call takes one of these names of their own: `Glibc.read` would
// name Linux's module only, and a module's name (`NotifJSON.read`) is not there when the fuzz
// build makes one module of every file (fuzz/run.sh).

/// `open(2)`, without a mode (no file is created).
@inlinable public func systemOpen(_ path: String, _ flags: Int32) -> Int32 {
  open(path, flags)
}

/// `read(2)`.
@inlinable public func systemRead(_ fd: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int)
  -> Int
{
  read(fd, bytes, count)
}

/// `write(2)`.
@inlinable public func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
  write(fd, bytes, count)
}

/// `close(2)`.
@inlinable @discardableResult public func systemClose(_ fd: Int32) -> Int32 {
  close(fd)
}
