import Foundation
import Testing

/// Each library module opens with a comment naming the tools that use it (CONTRIBUTING.md,
/// "Layout"), in one form that this test reads: a sentence of its own, `// Users: notif-parse,
/// notif-show.`, that names the tools and nothing else, in the order of Package.swift's
/// executable targets, over as many comment lines as it takes. How each tool uses the module is
/// said in the sentences after it. The tools it must name are those Package.swift makes depend
/// on the module, directly or through other library modules: the header cannot fall behind
/// the manifest.
@Suite struct ModuleHeaderTests {
  /// A target of a package manifest, as its text declares it.
  struct Target: Equatable {
    enum Kind: String, CaseIterable { case target, executableTarget, testTarget }
    var kind: Kind
    var name: String
    /// The targets it depends on, by name.
    var dependencies: [String]
    /// Its `path:`, when it is not `Sources/<name>`.
    var path: String?
  }

  static let manifest: String =
    (try? String(
      contentsOf: BehaviorTests.packageRoot.appendingPathComponent("Package.swift"),
      encoding: .utf8)) ?? ""

  /// The library modules: the targets in `Sources/` that are no executables (C ones too).
  static let libraryModules: [String] = targets(ofManifest: manifest)
    .filter { $0.kind == .target && $0.path == nil }.map(\.name)

  /// The targets `text` declares, in order: each `.target(`, `.executableTarget(` and
  /// `.testTarget(` with its `name:`, the names in its `dependencies: [...]` and its `path:`.
  /// Comments are left out first; a call inside a target's parentheses is part of that target.
  static func targets(ofManifest text: String) -> [Target] {
    let code = Array(
      text.split(separator: "\n", omittingEmptySubsequences: false)
        .map { line in line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...] }
        .joined(separator: "\n"))
    var targets: [Target] = []
    var at = 0
    while at < code.count {
      guard
        let kind = Target.Kind.allCases.first(where: { kind in
          code[at...].starts(with: Array(".\(kind.rawValue)("))
        })
      else {
        at += 1
        continue
      }
      let open = at + kind.rawValue.count + 1
      let close = matching(code, open, "(", ")")
      let body = String(code[(open + 1)..<close])
      var dependencies: [String] = []
      if let list = body.range(of: "dependencies:") {
        let rest = Array(body[list.upperBound...])
        if let start = rest.firstIndex(of: "[") {
          dependencies = quoted(String(rest[start...matching(rest, start, "[", "]")]))
        }
      }
      targets.append(
        Target(
          kind: kind, name: value(of: "name:", in: body) ?? "", dependencies: dependencies,
          path: value(of: "path:", in: body)))
      at = close + 1
    }
    return targets
  }

  /// For each library module, the executables that depend on it, directly or through other
  /// library modules, in the order the manifest declares the executables.
  static func users(_ targets: [Target]) -> [String: [String]] {
    let dependencies = Dictionary(
      targets.map { ($0.name, $0.dependencies) }, uniquingKeysWith: { first, _ in first })
    var users: [String: [String]] = [:]
    for tool in targets where tool.kind == .executableTarget {
      var reached: Set<String> = []
      var next = tool.dependencies
      while let module = next.popLast() {
        guard reached.insert(module).inserted else { continue }
        next += dependencies[module] ?? []
      }
      for module in reached.sorted() { users[module, default: []].append(tool.name) }
    }
    return users
  }

  /// The tools the header of a source file names: its first comment lines, from the one that
  /// starts `// Users: ` to the one that ends the sentence with a period. Nil when the header
  /// has no such sentence, or two.
  static func headerUsers(_ source: String) -> [String]? {
    let header = source.split(separator: "\n", omittingEmptySubsequences: false)
      .prefix { $0.hasPrefix("//") }
      .map { $0.dropFirst(2).trimmingCharacters(in: .whitespaces) }
    let starts = header.indices.filter { header[$0].hasPrefix("Users: ") }
    guard starts.count == 1, let start = starts.first,
      let end = header[start...].firstIndex(where: { $0.hasSuffix(".") })
    else { return nil }
    let sentence = header[start...end].joined(separator: " ")
    return sentence.dropFirst("Users: ".count).dropLast()
      .components(separatedBy: ", ")
  }

  /// The file whose header names a module's users: `Sources/M/M.swift`, or for a C module its
  /// header, `Sources/M/include/M.h`.
  static func headerFile(of module: String) -> URL {
    let folder = BehaviorTests.packageRoot.appendingPathComponent("Sources/\(module)")
    let swift = folder.appendingPathComponent("\(module).swift")
    return FileManager.default.fileExists(atPath: swift.path)
      ? swift : folder.appendingPathComponent("include/\(module).h")
  }

  @Test func theManifestHasLibraryModulesAndTools() {
    #expect(Self.libraryModules.contains("NotifModel"))
    #expect(Self.libraryModules.contains("CNotifSIMD"))
    #expect(!Self.libraryModules.contains("TestSupport"))
    let tools = Self.targets(ofManifest: Self.manifest).filter { $0.kind == .executableTarget }
    #expect(Set(tools.map(\.name)) == Set(BehaviorTests.tools))
  }

  @Test(arguments: ModuleHeaderTests.libraryModules)
  func headerNamesTheToolsThatUseIt(_ module: String) throws {
    let file = Self.headerFile(of: module)
    let source = try String(contentsOf: file, encoding: .utf8)
    let wanted = Self.users(Self.targets(ofManifest: Self.manifest))[module] ?? []
    let sentence = "// Users: \(wanted.joined(separator: ", "))."
    #expect(
      Self.headerUsers(source) == wanted,
      "\(file.lastPathComponent) names its users in one sentence: \(sentence)")
  }

  @Test func readsTargetsDependenciesAndUsersOfAManifest() {
    let manifest = """
      let package = Package(
        targets: [
          // Comments are no code: .target(name: "Commented")
          .target(name: "Low"),
          .target(name: "Middle", dependencies: ["Low"]),
          .target(name: "Side", dependencies: [.target(name: "Low")]),
          .executableTarget(name: "tool-a", dependencies: ["Middle"]),
          .executableTarget(
            name: "tool-b",
            dependencies: [
              "Side",
            ]),
          .target(name: "Helpers", dependencies: ["Low"], path: "Tests/Helpers"),
          .testTarget(name: "Tests", dependencies: ["tool-a", "Helpers"]),
        ]
      )
      """
    let targets = Self.targets(ofManifest: manifest)
    #expect(
      targets == [
        .init(kind: .target, name: "Low", dependencies: []),
        .init(kind: .target, name: "Middle", dependencies: ["Low"]),
        .init(kind: .target, name: "Side", dependencies: ["Low"]),
        .init(kind: .executableTarget, name: "tool-a", dependencies: ["Middle"]),
        .init(kind: .executableTarget, name: "tool-b", dependencies: ["Side"]),
        .init(kind: .target, name: "Helpers", dependencies: ["Low"], path: "Tests/Helpers"),
        .init(kind: .testTarget, name: "Tests", dependencies: ["tool-a", "Helpers"]),
      ])
    let users = Self.users(targets)
    #expect(users["Low"] == ["tool-a", "tool-b"])
    #expect(users["Middle"] == ["tool-a"])
    #expect(users["Side"] == ["tool-b"])
    #expect(users["Helpers"] == nil)
  }

  @Test func readsTheUsersSentenceOfAHeader() {
    let header = """
      // Module: what it is.
      // Users: tool-a, tool-b,
      // tool-c.
      // How they use it. Users: is not read here.
      import Other
      // Users: after the header.
      """
    #expect(Self.headerUsers(header) == ["tool-a", "tool-b", "tool-c"])
    #expect(Self.headerUsers("// Users: tool-a.\n// Users: tool-b.\n") == nil)
    #expect(Self.headerUsers("// Module. Users: tool-a.\n") == nil)
    #expect(Self.headerUsers("import Other\n// Users: tool-a.\n") == nil)
  }

  // MARK: - Helpers

  /// The index of the bracket that closes the one at `open`.
  private static func matching(
    _ code: [Character], _ open: Int, _ opening: Character,
    _ closing: Character
  ) -> Int {
    var depth = 0
    for index in open..<code.count {
      if code[index] == opening { depth += 1 }
      if code[index] == closing {
        depth -= 1
        if depth == 0 { return index }
      }
    }
    return code.count - 1
  }

  /// The string after `label` (`name: "X"` gives `X`), if it is followed by one.
  private static func value(of label: String, in body: String) -> String? {
    guard let found = body.range(of: label) else { return nil }
    let rest = body[found.upperBound...].drop { $0 == " " || $0 == "\n" }
    guard rest.first == "\"" else { return nil }
    return quoted(String(rest)).first
  }

  /// The string literals of `text`, in order.
  private static func quoted(_ text: String) -> [String] {
    text.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
      .filter { $0.offset % 2 == 1 }.map { String($0.element) }
  }
}
