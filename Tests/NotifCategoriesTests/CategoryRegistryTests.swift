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
}
