import NotifModel

/// `notif-parse --explain ID|CODE`: the rules of notif-rules(7) an id or a diagnostic code
/// names, in words, as ShellCheck's wiki and `rustc --explain` give a check: what it finds,
/// the verdict and why, the source, and a failing and a passing message from its cases.
enum Explain {
  /// The text for `topic`, a rule id or a code (any case), or nil if it names none.
  static func text(_ topic: String) -> String? {
    let rules = Rule.named(topic)
    guard let first = rules.first else { return nil }
    var out = ""
    if rules.count > 1 {
      out += "\(first.code): the code of \(rules.count) rules\n\n"
    }
    out += rules.map { explanation($0.entry) }.joined(separator: "\n")
    return out
  }

  /// The line that names the nearest ids, for a topic that names no rule.
  static func nearest(_ topic: String) -> String {
    let near = Rule.nearest(to: topic).map(\.id)
    let shown = Diagnostic.visible(topic)
    guard !near.isEmpty else {
      return "no rule or code '\(shown)' in notif-rules(7)"
    }
    return "no rule or code '\(shown)' in notif-rules(7); the nearest: "
      + near.joined(separator: ", ")
  }

  private static func explanation(_ entry: RuleEntry) -> String {
    var out = "\(entry.id) (\(entry.format): \(entry.path))\n"
    func field(_ label: String, _ text: String) {
      let lines = wrap(text, width: 80 - 11)
      for (index, line) in lines.enumerated() {
        let head =
          index == 0 && !label.isEmpty
          ? (label + ":").padding(toLength: 11) : String(repeating: " ", count: 11)
        out += "  " + head + line + "\n"
      }
    }
    field("Finds", entry.summary)
    switch entry.verdict {
    case .error?:
      field("Verdict", "error \(entry.code): the record is rejected, and the exit status is 1")
    case .warning?:
      field(
        "Verdict",
        "warning \(entry.code): the record is kept (rejected with --strict), and the exit status is 0"
      )
    default:
      field("Verdict", "ignored: notif-parse says nothing, as the vendor takes it")
    }
    field("Why", entry.vendor)
    switch entry.fix {
    case .safe?: field("Fix", "safe: --fix repairs it, keeping what the device does")
    case .unsafe?:
      field(
        "Fix",
        "unsafe: --fix --unsafe-fixes repairs it toward what was meant, which changes"
          + " what the device does")
    case nil: break
    }
    field("Source", entry.sourceTitle)
    field("", entry.sourceAddress)
    for (label, example) in [("Fails", entry.failing), ("Passes", entry.passing)]
    where !example.isEmpty {
      for (index, line) in example.split(separator: "\n").enumerated() {
        let head =
          index == 0 ? (label + ":").padding(toLength: 11) : String(repeating: " ", count: 11)
        out += "  " + head + Diagnostic.visible(String(line)) + "\n"
      }
    }
    return out
  }

  /// `text` in lines of at most `width` characters, broken at spaces (a longer word stands
  /// on a line of its own).
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty && line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
  }
}

extension String {
  fileprivate func padding(toLength length: Int) -> String {
    count >= length ? self + " " : self + String(repeating: " ", count: length - count)
  }
}
