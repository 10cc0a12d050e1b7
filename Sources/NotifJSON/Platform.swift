// The C library, re-exported: the modules and tools above NotifJSON call read(2), write(2),
// open(2) and the POSIX threads through it, so no file of theirs repeats the platform switch.
#if canImport(Glibc)
  @_exported import Glibc
#elseif canImport(Musl)
  @_exported import Musl
#elseif canImport(Darwin)
  @_exported import Darwin
#endif
