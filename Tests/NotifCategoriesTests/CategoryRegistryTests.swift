import Foundation
import NotifCategories
import NotifModel
import TestSupport
import Testing

@Suite struct CategoryRegistryTests {
  @Test func theRegistryRefusesADirectiveAtItsValue() throws {
    let folder = try makeScratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("categories.json").path
    try Data("{\"photo\": {\n  \"category_summary_format\": \"%s more\"}}".utf8).write(
      to: URL(fileURLWithPath: path))
    #expect(
      throws: ConfigFileError(
        Diagnostic(
          .error, "BadRegistry",
          "category_summary_format of category 'photo': unsupported directive '%s' in '%s more': use %u, %d, %lu, %@, %1$u, %2$@ or %%",
          file: path, line: 2, column: 30))
    ) {
      _ = try CategoryRegistry.load(path)
    }
  }

  /// A digest format is read, and checked with the directives of the summary formats: the
  /// CI gate (notif-parse --check --categories) refuses what notif-digest would.
  @Test func theDigestFormatIsReadAndChecked() throws {
    let folder = try makeScratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("categories.json").path
    try Data(#"{"like": {"digest_format": "%@ liked your photo"}}"#.utf8).write(
      to: URL(fileURLWithPath: path))
    #expect(try CategoryRegistry.load(path).registry["like"]?.digestFormat == "%@ liked your photo")
    try Data("{\"like\": {\n  \"digest_format\": \"%d%s\"}}".utf8).write(
      to: URL(fileURLWithPath: path))
    #expect(
      throws: ConfigFileError(
        Diagnostic(
          .error, "BadRegistry",
          "digest_format of category 'like': unsupported directive '%s' in '%d%s': use %u, %d, %lu, %@, %1$u, %2$@ or %%",
          file: path, line: 2, column: 20))
    ) {
      _ = try CategoryRegistry.load(path)
    }
  }
}
