import NotifJSON

/// An app's notification categories, as `UNNotificationCategory` registers them: the file that
/// `--categories` names (format in `notif-categories(5)`).
///
/// ```json
/// {"message": {"category_summary_format": "%u more messages from %@",
///              "hidden_previews_body_placeholder": "%u messages",
///              "actions": [{"identifier": "reply", "title": "Reply", "options": ["foreground"]}]}}
/// ```
public struct CategoryRegistry: Sendable {
  /// The categories, in the order the file lists them.
  public private(set) var categories: [NotificationCategory] = []
  private var index: [String: Int] = [:]

  /// The category with this identifier, if registered.
  public subscript(identifier: String) -> NotificationCategory? {
    index[identifier].map { categories[$0] }
  }

  /// A problem with the file's shape, at a byte offset in it.
  public struct FormatError: Error, Sendable, Equatable {
    /// The byte offset of the offending key or value.
    public var offset: Int
    /// One lowercase line.
    public var message: String
  }

  static let actionOptions: Set<String> = ["destructive", "foreground", "authentication-required"]

  /// Reads a registry from its parsed JSON text.
  ///
  /// - Throws: `FormatError` for a shape other than the documented one: unknown keys, wrong
  ///   types, unknown action options, an action without identifier or title.
  public init(_ view: JSONView) throws(FormatError) {
    guard view.kind(0) == .object else {
      throw FormatError(
        offset: 0, message: "a category registry must be a JSON object of categories")
    }
    var failure: FormatError? = nil
    view.forEachMember(of: 0) { key, value in
      guard failure == nil else { return }
      do {
        let category = try Self.category(view, key, value)
        index[category.identifier] = categories.count
        categories.append(category)
      } catch {
        failure = error as? FormatError
      }
    }
    if let failure { throw failure }
  }

  private static func offset(_ view: JSONView, _ index: Int) -> Int {
    Int(view.tokens[index].start)
  }

  private static func category(_ view: JSONView, _ key: Int, _ value: Int) throws(FormatError)
    -> NotificationCategory
  {
    let identifier = view.string(key)
    guard view.kind(value) == .object else {
      throw FormatError(
        offset: offset(view, value), message: "category '\(identifier)' must be an object")
    }
    var category = NotificationCategory(identifier: identifier, offset: offset(view, key))
    var failure: FormatError? = nil
    view.forEachMember(of: value) { field, fieldValue in
      guard failure == nil else { return }
      let name = view.string(field)
      switch name {
      case "category_summary_format", "hidden_previews_body_placeholder":
        guard let text = view.stringValue(fieldValue) else {
          failure = FormatError(
            offset: offset(view, fieldValue), message: "'\(name)' must be a string")
          return
        }
        if name == "category_summary_format" {
          category.summaryFormat = text
        } else {
          category.hiddenPreviewsBodyPlaceholder = text
        }
      case "actions":
        guard view.kind(fieldValue) == .array else {
          failure = FormatError(
            offset: offset(view, fieldValue), message: "'actions' must be an array")
          return
        }
        view.forEachElement(of: fieldValue) { element in
          guard failure == nil else { return }
          do {
            category.actions.append(try action(view, element))
          } catch {
            failure = error as? FormatError
          }
        }
      default:
        failure = FormatError(
          offset: offset(view, field),
          message:
            "unknown key '\(name)' in category '\(identifier)': a category has category_summary_format, hidden_previews_body_placeholder and actions"
        )
      }
    }
    if let failure { throw failure }
    return category
  }

  private static func action(_ view: JSONView, _ element: Int) throws(FormatError)
    -> NotificationAction
  {
    guard view.kind(element) == .object else {
      throw FormatError(offset: offset(view, element), message: "an action must be an object")
    }
    var action = NotificationAction(offset: offset(view, element))
    var failure: FormatError? = nil
    view.forEachMember(of: element) { key, value in
      guard failure == nil else { return }
      let name = view.string(key)
      switch name {
      case "identifier", "title":
        guard let text = view.stringValue(value) else {
          failure = FormatError(
            offset: offset(view, value), message: "an action's '\(name)' must be a string")
          return
        }
        if name == "identifier" {
          action.identifier = text
        } else {
          action.title = text
          action.titleOffset = offset(view, value)
        }
      case "options":
        guard view.kind(value) == .array else {
          failure = FormatError(
            offset: offset(view, value), message: "an action's 'options' must be an array")
          return
        }
        view.forEachElement(of: value) { option in
          guard failure == nil else { return }
          guard let text = view.stringValue(option), actionOptions.contains(text) else {
            failure = FormatError(
              offset: offset(view, option),
              message:
                "unknown action option: use destructive, foreground or authentication-required")
            return
          }
          action.options.insert(text)
        }
      default:
        failure = FormatError(
          offset: offset(view, key),
          message: "unknown key '\(name)' in an action: an action has identifier, title and options"
        )
      }
    }
    if let failure { throw failure }
    guard action.identifier != nil, action.title != nil else {
      throw FormatError(
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
  /// The actions, in order.
  public var actions: [NotificationAction] = []
  /// The byte offset of the category's key in the registry file.
  public var offset: Int
}

/// One action button of a category.
public struct NotificationAction: Sendable, Equatable {
  /// The action identifier.
  public var identifier: String?
  /// The button title.
  public var title: String?
  /// Any of `destructive`, `foreground`, `authentication-required`.
  public var options: Set<String> = []
  /// The byte offset of the action in the registry file.
  public var offset: Int
  /// The byte offset of the title's value.
  public var titleOffset: Int = 0
}
