extension ByteBuffer {
  /// Calls `body` with a writer that appends to this buffer, for a run of many small appends
  /// (a record, field by field). The buffer's storage is made its own once, before the call;
  /// the writer's appends then check only for room. Each append to the buffer itself checks
  /// that its storage is not shared, a call into the runtime.
  ///
  /// `body` has the buffer to itself, through the writer; when the call returns, or throws,
  /// the buffer holds what the writer wrote.
  @inlinable public mutating func write<R, E: Error>(
    _ body: (inout Writer) throws(E) -> R
  ) throws(E) -> R {
    if _slowPath(!isKnownUniquelyReferenced(&storage)) { grow(length) }
    var writer = Writer(storage: storage, length: length)
    defer {
      storage = writer.storage
      length = writer.length
    }
    return try body(&writer)
  }

  /// Appends to a buffer during `ByteBuffer.write(_:)`. It cannot be copied: a copy's appends
  /// would go to the same storage, unseen by the buffer.
  public struct Writer: ~Copyable {
    @usableFromInline var storage: Storage
    @usableFromInline var length: Int

    @inlinable init(storage: Storage, length: Int) {
      self.storage = storage
      self.length = length
    }

    /// The number of bytes in the buffer, those before the call too.
    @inlinable public var count: Int { length }

    /// Makes room for `extra` more bytes.
    @inlinable @inline(__always)
    mutating func room(_ extra: Int) {
      if _slowPath(length + extra > storage.capacity) { grow(length + extra) }
    }

    @usableFromInline mutating func grow(_ needed: Int) {
      storage = storage.grown(keeping: length, toHold: needed)
    }

    /// Appends one byte.
    @inlinable @inline(__always) public mutating func append(_ byte: UInt8) {
      room(1)
      storage.pointer[length] = byte
      length += 1
    }

    /// Appends a run of bytes.
    @inlinable @inline(__always) public mutating func append(_ raw: UnsafeRawBufferPointer) {
      guard let source = raw.baseAddress, raw.count > 0 else { return }
      room(raw.count)
      UnsafeMutableRawPointer(storage.pointer + length).copyMemory(
        from: source, byteCount: raw.count)
      length += raw.count
    }

    /// Appends the bytes of a buffer.
    @inlinable @inline(__always) public mutating func append(_ other: ByteBuffer) {
      other.withUnsafeBytes { append($0) }
    }

    /// Appends the UTF-8 bytes of a literal as they are.
    @inlinable @inline(__always) public mutating func append(_ literal: StaticString) {
      append(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends the decimal digits of an integer.
    @inlinable @inline(__always) public mutating func append(decimal value: Int64) {
      room(ByteBuffer.maxDecimalLength)
      length += ByteBuffer.storeDecimal(value, at: storage.pointer + length)
    }

    /// Appends the 16 lowercase hex digits of `value`.
    @inlinable @inline(__always) public mutating func append(hex value: UInt64) {
      room(16)
      ByteBuffer.storeHex(value, at: storage.pointer + length)
      length += 16
    }
  }
}
