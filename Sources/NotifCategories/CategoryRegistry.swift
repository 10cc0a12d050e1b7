import NotifJSON
import NotifModel

/// An app's notification categories, as `UNNotificationCategory` registers them: the file that
/// `--categories` names (format in `notif-categories(5)`).
///
/// ```json
/// {"message": {"category_summary_format": "%u more messages from %@",
///              "hidden_previews_body_placeholder": "%u messages",
///              "digest_format": "%u new messages from %@",
///              "actions": [{"identifier": "reply", "title": "Reply", "options": ["foreground"]}]}}
/// ```
public struct CategoryRegistry: Sendable {
  /// The categories, in the order the file lists them.
  public private(set) var categories: [NotificationCategory] = []
  /// By the identifier's UTF-8 bytes: iOS compares identifiers code point by code point, and
  /// `String` keys would make `"\u00e9"` and `"e\u0301"` one category.
  private var index: [[UInt8]: Int] = [:]

  /// The category with this identifier, if registered.
  public subscript(identifier: String) -> NotificationCategory? {
    index[Array(identifier.utf8)].map { categories[$0] }
  }

  static let actionOptions: Set<String> = ["destructive", "foreground", "authentication-required"]

  /// Loads the registry at `path` with `ConfigFile`, as both tools that take `--categories` do.
  ///
  /// - Returns: the registry and its file, which places the offsets the registry keeps.
  /// - Throws: `ConfigFileError`: `Unreadable`, the JSON parser's codes, or `BadRegistry` for a
  ///   shape other than the documented one or a format with a directive `SummaryFormat` refuses.
  public static func load(_ path: String) throws(ConfigFileError)
    -> (registry: CategoryRegistry, file: ConfigFile)
  {
    let loaded = try ConfigFile.load(path, as: "a category registry", code: "BadRegistry") {
      view throws(ConfigFile.Rejection) in try CategoryRegistry(view)
    }
    return (loaded.value, loaded.file)
  }

  /// Loads the registry at `path` (`load`), with the line and column of each category's key,
  /// where the diagnostics of its formats point (notif-summarize, notif-digest).
  ///
  /// - Throws: `ConfigFileError`, as `load`.
  public static func loadWithPositions(_ path: String) throws(ConfigFileError)
    -> (registry: CategoryRegistry, positions: [String: (line: Int, column: Int)])
  {
    let loaded = try load(path)
    var positions: [String: (line: Int, column: Int)] = [:]
    for category in loaded.registry.categories {
      positions[category.identifier] = loaded.file.position(of: category.offset)
    }
    return (loaded.registry, positions)
  }

  /// Reads a registry from its parsed JSON text, whose root is an object (`ConfigFile` checks).
  ///
  /// - Throws: `ConfigFile.Rejection` for a shape other than the documented one: unknown keys,
  ///   wrong types, unknown action options, an action without identifier or title, a format
  ///   with a directive other than those of `SummaryFormat`.
  public init(_ view: JSONView) throws(ConfigFile.Rejection) {
    try view.forEachMember(of: 0) { key, value throws(ConfigFile.Rejection) in
      let category = try Self.category(view, key, value)
      index[Array(category.identifier.utf8)] = categories.count
      categories.append(category)
    }
  }

  private static func offset(_ view: JSONView, _ index: Int) -> Int {
    Int(view.tokens[index].start)
  }

  /// The elements of the array at `index`; a rejection saying `message` if it is none.
  private static func elements(of index: Int, in view: JSONView, or message: String)
    throws(ConfigFile.Rejection) -> [Int]
  {
    guard view.kind(index) == .array else {
      throw ConfigFile.Rejection(offset: offset(view, index), message: message)
    }
    var elements: [Int] = []
    view.forEachElement(of: index) { elements.append($0) }
    return elements
  }

  /// The string at `index`; a rejection saying `message` if it is none.
  private static func string(at index: Int, in view: JSONView, or message: String)
    throws(ConfigFile.Rejection) -> String
  {
    guard let text = view.stringValue(index) else {
      throw ConfigFile.Rejection(offset: offset(view, index), message: message)
    }
    return text
  }

  private static func category(_ view: JSONView, _ key: Int, _ value: Int) throws(ConfigFile
    .Rejection)
    -> NotificationCategory
  {
    let identifier = view.string(key)
    guard view.kind(value) == .object else {
      throw ConfigFile.Rejection(
        offset: offset(view, value), message: "category '\(identifier)' must be an object")
    }
    var category = NotificationCategory(identifier: identifier, offset: offset(view, key))
    try view.forEachMember(of: value) { field, fieldValue throws(ConfigFile.Rejection) in
      let name = view.string(field)
      switch name {
      case "category_summary_format", "hidden_previews_body_placeholder", "digest_format":
        let text = try string(at: fieldValue, in: view, or: "'\(name)' must be a string")
        do {
          _ = try SummaryFormat(text)
        } catch {
          throw ConfigFile.Rejection(
            offset: offset(view, fieldValue),
            message: "\(name) of category '\(identifier)': \(error)")
        }
        switch name {
        case "category_summary_format":
          category.summaryFormat = text
          category.summaryFormatOffset = offset(view, fieldValue)
        case "digest_format":
          category.digestFormat = text
          category.digestFormatOffset = offset(view, fieldValue)
        default:
          category.hiddenPreviewsBodyPlaceholder = text
          category.hiddenPreviewsBodyPlaceholderOffset = offset(view, fieldValue)
        }
      case "actions":
        for element in try elements(of: fieldValue, in: view, or: "'actions' must be an array") {
          category.actions.append(try action(view, element))
        }
      default:
        throw ConfigFile.Rejection(
          offset: offset(view, field),
          message:
            "unknown key '\(name)' in category '\(identifier)': a category has category_summary_format, hidden_previews_body_placeholder, digest_format and actions"
        )
      }
    }
    return category
  }

  private static func action(_ view: JSONView, _ element: Int) throws(ConfigFile.Rejection)
    -> NotificationAction
  {
    guard view.kind(element) == .object else {
      throw ConfigFile.Rejection(
        offset: offset(view, element), message: "an action must be an object")
    }
    var action = NotificationAction(offset: offset(view, element))
    try view.forEachMember(of: element) { key, value throws(ConfigFile.Rejection) in
      let name = view.string(key)
      switch name {
      case "identifier", "title":
        let text = try string(at: value, in: view, or: "an action's '\(name)' must be a string")
        if name == "identifier" {
          action.identifier = text
        } else {
          action.title = text
          action.titleOffset = offset(view, value)
        }
      case "options":
        let options = try elements(
          of: value, in: view, or: "an action's 'options' must be an array")
        for option in options {
          guard let text = view.stringValue(option), actionOptions.contains(text) else {
            throw ConfigFile.Rejection(
              offset: offset(view, option),
              message:
                "unknown action option: use destructive, foreground or authentication-required")
          }
          action.options.insert(text)
        }
      default:
        throw ConfigFile.Rejection(
          offset: offset(view, key),
          message: "unknown key '\(name)' in an action: an action has identifier, title and options"
        )
      }
    }
    guard action.identifier != nil, action.title != nil else {
      throw ConfigFile.Rejection(
        offset: action.offset, message: "an action needs an 'identifier' and a 'title'")
    }
    return action
  }
}

/// One registered category.
public struct NotificationCategory: Sendable, Equatable {
  /// The category identifier, which payloads name in `aps.category`.
  public var identifier: String
  /// The summary format, such as `%u more messages from %@`.
  public var summaryFormat: String?
  /// The text shown instead of the body while previews are hidden, such as `%u messages`.
  public var hiddenPreviewsBodyPlaceholder: String?
  /// The text of a digest of notifications of this category (notif-digest), such as
  /// `%u new messages from %@`: the same directives as `summaryFormat`.
  public var digestFormat: String?
  /// The actions, in order.
  public var actions: [NotificationAction] = []
  /// The byte offset of the category's key in the registry's JSON text.
  public var offset: Int
  /// The byte offset of `summaryFormat`'s value, when the category has one.
  public var summaryFormatOffset: Int? = nil
  /// The byte offset of `hiddenPreviewsBodyPlaceholder`'s value, when the category has one.
  public var hiddenPreviewsBodyPlaceholderOffset: Int? = nil
  /// The byte offset of `digestFormat`'s value, when the category has one.
  public var digestFormatOffset: Int? = nil
}

/// One action button of a category.
public struct NotificationAction: Sendable, Equatable {
  /// The action identifier.
  public var identifier: String?
  /// The button title.
  public var title: String?
  /// Any of `destructive`, `foreground`, `authentication-required`.
  public var options: Set<String> = []
  /// The byte offset of the action in the registry's JSON text.
  public var offset: Int
  /// The byte offset of the title's value.
  public var titleOffset: Int = 0
}
