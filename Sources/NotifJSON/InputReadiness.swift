/// Whether reads of `fd` can wait for input: a pipe, terminal or socket, not a regular file
/// (whose reads return at once, at its end too).
func readsCanWait(_ fd: Int32) -> Bool {
  var status = stat()
  return fd >= 0 && fstat(fd, &status) == 0 && status.st_mode & S_IFMT != S_IFREG
}

/// Whether a read of `fd` would wait now: nothing has come to read, and the input is not at
/// its end.
func readWouldWait(_ fd: Int32) -> Bool {
  var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
  return poll(&ready, 1, 0) == 0
}
