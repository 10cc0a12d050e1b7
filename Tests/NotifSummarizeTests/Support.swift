import Foundation
import NotifCategories
import NotifJSON
import NotifModel

@testable import NotifLocalization
@testable import notif_summarize

struct TestFailure: Error, CustomStringConvertible {
  var description: String
}

/// A registry from JSON text.
func registry(_ json: String) throws -> CategoryRegistry {
  var parser = JSONParser()
  let bytes = Array(json.utf8)
  return try bytes.withUnsafeBytes { raw in
    guard case .complete = parser.parse(raw, isFinal: true) else {
      throw TestFailure(description: "bad JSON: \(json)")
    }
    return try parser.withView(over: raw) { try CategoryRegistry($0) }
  }
}

/// The categories of the WWDC 2018 session 711 examples.
let sessionCategories = """
  {"message": {"category_summary_format": "%u more messages from %@",
               "hidden_previews_body_placeholder": "%u messages"},
   "chat": {"category_summary_format": "%u more messages"},
   "photo": {"category_summary_format": "%u more photos", "hidden_previews_body_placeholder": "%u photos"},
   "episode": {"category_summary_format": "%u more episodes",
               "hidden_previews_body_placeholder": "%u episodes"},
   "empty": {"category_summary_format": "", "hidden_previews_body_placeholder": ""},
   "mail": {"category_summary_format": "%u more messages for %@"}}
  """

func summarizer(
  profile: Profile = .ios12, maxArguments: Int? = nil, locale: String = "en",
  categories: String = sessionCategories, strings: [String] = []
) throws -> Summarizer {
  let locale = try CLDRLocale(locale)
  let book = FormatBook(
    locale: locale, strings: try LocalizedStrings(paths: strings, locale: locale),
    stringsGiven: !strings.isEmpty)
  return try Summarizer(
    profile: profile, maxArguments: maxArguments,
    sources: TextSources(
      registry: try registry(categories), registryFile: "categories.json", book: book))
}

/// A group whose records are `(category, summary_arg, weight)`, the first one leading.
func group(_ records: [(String?, String?, Int)]) -> GroupFacts {
  let more = records.dropFirst()
  var categories: [String?: GroupFacts.CategoryCount] = [:]
  for (category, _, weight) in more {
    categories[category, default: .init(category: category, count: 0, weight: 0)].count += 1
    categories[category]?.weight += weight
  }
  var arguments: [String] = []
  for (_, argument, _) in more {
    if let argument, !argument.isEmpty, !arguments.contains(argument) { arguments.append(argument) }
  }
  return GroupFacts(
    count: records.count, moreCount: more.count, moreWeight: more.reduce(0) { $0 + $1.2 },
    moreCategories: categories.values.sorted { ($0.category ?? "") < ($1.category ?? "") },
    moreArguments: arguments, leadingCategory: records.first?.0,
    leadingWeight: records.first?.2 ?? 1)
}

/// A scratch folder with files, removed by the caller.
func scratch(_ files: [String: String]) throws -> URL {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "notif-summarize-\(UUID().uuidString)")
  for (name, text) in files {
    let url = folder.appendingPathComponent(name)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }
  return folder
}
