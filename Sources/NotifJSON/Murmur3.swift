/// MurmurHash3's 64-bit finalizer (`fmix64`): mixes every bit of `h` into every bit of the
/// result. The last step of notif-parse's record ids (fixed forever: ids are stored in users'
/// inboxes) and of notif-group's interning hash.
@inlinable
public func murmur3Finalize(_ h: UInt64) -> UInt64 {
  var h = h
  h ^= h >> 33
  h &*= 0xFF51_AFD7_ED55_8CCD
  h ^= h >> 33
  h &*= 0xC4CE_B9FE_1A85_EC53
  h ^= h >> 33
  return h
}
