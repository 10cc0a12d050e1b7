import CNotifSystem
import Testing

@testable import notif_group

/// notif-group's main.swift has the allocator map blocks of `GroupRun.mappedBlockSize` and
/// more on their own (the memory of a run with many groups depends on it).
@Suite struct AllocatorTests {
  /// glibc takes the setting; another C library has none (a first version of the shim tested
  /// for glibc before any header said so, and never set it).
  @Test func theMappedBlockSizeIsSetWhereTheCLibraryIsGlibc() {
    #if canImport(Glibc)
      #expect(notif_map_blocks_from(GroupRun.mappedBlockSize) == 1)
    #else
      #expect(notif_map_blocks_from(GroupRun.mappedBlockSize) == 0)
    #endif
  }
}
