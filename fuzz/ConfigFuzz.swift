// Fuzz target `config`: the one loader of JSON configuration files (`ConfigFile`) as each of
// its readers uses it, on the input as a file: notif-expire's policy
// (`ExpireCommand.loadPolicy`), the category registry (`CategoryRegistry.load`),
// notif-summarize's string catalog (`XCStringsFile.load`, for a locale chosen by the input's
// last byte), notif-show's apps file (`AppDirectory.load`, its icons named relative to the
// scratch folder; a FIFO or a device it names is refused before it is read) and
// notif-parse's `.notif-parse.json` (`ParseConfigFile.load`).
//
// Properties:
//   (a) a file that is refused is refused with a diagnostic that names it, at a 1-based
//       LINE:COL inside the file (a line no greater than the file's line count plus one), and
//       whose message renders as one line in every diagnostic format (`checkMessage`);
//   (b) a registry that loads holds only summary formats and hidden-previews placeholders that
//       `SummaryFormat` accepts;
//   (c) every catalog entry that keeps a place has one inside the file, as in (a);
//   (d) loading the same bytes twice, from the file or from the bytes already read
//       (`ConfigFile(path:bytes:)`), gives the same value or the same diagnostic;
//   (e) an apps file that loads holds only icons of at most `AppIcon.maxBytes` whose bytes
//       are of their kind, and whose data: URI decodes to them;
//   (f) a notif-parse configuration that loads never leaves a rule of reading a text
//       unchecked, whatever it selects and ignores.

/// The locales a catalog is read for, made once: making one costs more than reading a file.
let fuzzLocales: [CLDRLocale] = ["en", "fr", "ru", "ar", "ja", "cy", "pl", "de"].map { name in
  guard let locale = try? CLDRLocale(name) else { fail("locale '\(name)' does not load") }
  return locale
}

func fuzzConfig(_ input: UnsafeRawBufferPointer) {
  let lines = input.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }

  func checkPlace(_ line: Int?, _ column: Int?, _ what: String) {
    if let line {
      require(line >= 1 && line <= lines + 1, "\(what): line \(line) of a \(lines)-line file")
    }
    if let column { require(column >= 1, "\(what): column \(column)") }
  }
  func checkDiagnostic(_ diagnostic: Diagnostic, path: String, _ what: String) {
    require(diagnostic.file == path, "\(what): the error names '\(diagnostic.file)'")
    checkPlace(diagnostic.line, diagnostic.column, what)
    checkMessage(diagnostic.message, of: what)
  }

  // notif-expire's policy, as ExpireCommand loads it.
  let policyPath = scratchPath("policy.json", holding: input)
  let policy = ExpireCommand.loadPolicy(policyPath)
  switch policy {
  case .policy(let loaded):
    let again = try? ConfigFile(path: policyPath, bytes: Array(input)).interpret(
      as: "a policy", code: "BadPolicy"
    ) { view throws(ExpirePolicy.FormatError) in try ExpirePolicy(view) }
    require(again == loaded, "the policy reads otherwise from the same bytes")
  case .problem(let diagnostic):
    checkDiagnostic(diagnostic, path: policyPath, "policy")
    if case .problem(let again) = ExpireCommand.loadPolicy(policyPath) {
      require(again == diagnostic, "the policy's diagnostic differs on a second load")
    } else {
      fail("the policy loads on a second try")
    }
  }

  // The category registry, as notif-parse and notif-summarize load it.
  let registryPath = scratchPath("categories.json", holding: input)
  do {
    let loaded = try CategoryRegistry.load(registryPath)
    for category in loaded.registry.categories {
      for format in [category.summaryFormat, category.hiddenPreviewsBodyPlaceholder] {
        guard let format else { continue }
        require((try? SummaryFormat(format)) != nil, "registry kept the format '\(format)'")
      }
      require(
        loaded.registry[category.identifier] != nil,
        "category '\(category.identifier)' cannot be looked up")
    }
    let again = try? ConfigFile(path: registryPath, bytes: Array(input)).interpret(
      as: "a category registry", code: "BadRegistry"
    ) { view throws(ConfigFile.Rejection) in try CategoryRegistry(view) }
    require(
      again?.categories == loaded.registry.categories,
      "the registry reads otherwise from the same bytes")
  } catch {
    checkDiagnostic(error.diagnostic, path: registryPath, "registry")
    let first = error
    do {
      _ = try CategoryRegistry.load(registryPath)
      fail("the registry loads on a second try")
    } catch {
      require(error == first, "the registry's diagnostic differs on a second load")
    }
  }

  // notif-show's apps file, as --apps loads it.
  let appsPath = scratchPath("apps.json", holding: input)
  do {
    let loaded = try AppDirectory.load(appsPath)
    for entry in loaded.entries.values {
      guard let icon = entry.icon else { continue }
      require(icon.bytes.count <= AppIcon.maxBytes, "an icon of \(icon.bytes.count) bytes")
      require(AppIcon.kind(of: icon.bytes) == icon.kind, "an icon is not of its kind")
      let uri = Array(icon.dataURI.utf8)
      let comma = uri.firstIndex(of: UInt8(ascii: ",")) ?? uri.endIndex
      require(Base64.decode(uri[(comma + 1)...]) == icon.bytes, "an icon's data: URI")
    }
    let again = try? ConfigFile(path: appsPath, bytes: Array(input)).interpret(
      as: "an apps file", code: AppDirectory.code
    ) { view throws(ConfigFile.Rejection) in
      try AppDirectory(view, folder: AppDirectory.folder(of: appsPath))
    }
    require(again == loaded, "the apps file reads otherwise from the same bytes")
  } catch {
    checkDiagnostic(error.diagnostic, path: appsPath, "apps file")
    let first = error
    do {
      _ = try AppDirectory.load(appsPath)
      fail("the apps file loads on a second try")
    } catch {
      require(error == first, "the apps file's diagnostic differs on a second load")
    }
  }

  // notif-parse's configuration file, as a run reads it.
  let parseConfigPath = scratchPath(".notif-parse.json", holding: input)
  do {
    let loaded = try ParseConfigFile.load(parseConfigPath)
    let selection = RuleSelection(select: loaded.select, ignore: loaded.ignore)
    for rule in RuleSelection.reading {
      require(selection.checks(rule), "the configuration leaves \(rule.id) unchecked")
    }
    require(
      (try? ParseConfigFile.load(parseConfigPath)) == loaded,
      "the configuration reads otherwise on a second load")
  } catch {
    checkDiagnostic(error.diagnostic, path: parseConfigPath, "notif-parse configuration")
  }

  // notif-summarize's string catalog, for one locale.
  let catalogPath = scratchPath("Localizable.xcstrings", holding: input)
  let locale = fuzzLocales[Int(input.last ?? 0) % fuzzLocales.count]
  let first: Result<[String: LocalizedEntry], StringsError>
  do {
    first = .success(try XCStringsFile.load(catalogPath, locale: locale))
  } catch {
    first = .failure(error)
  }
  switch first {
  case .success(let entries):
    for (key, entry) in entries {
      require(entry.file == catalogPath, "entry '\(key)' names '\(entry.file)'")
      checkPlace(entry.line, entry.column, "catalog entry")
    }
  case .failure(let error):
    require(error.file == catalogPath, "catalog: the error names '\(error.file)'")
    checkPlace(error.line, error.column, "catalog")
    checkMessage(error.message, of: "catalog")
  }
  let second: Result<[String: LocalizedEntry], StringsError>
  do {
    second = .success(try XCStringsFile.load(catalogPath, locale: locale))
  } catch {
    second = .failure(error)
  }
  require(first == second, "the catalog reads otherwise on a second load")
}
