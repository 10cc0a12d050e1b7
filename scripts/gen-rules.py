#!/usr/bin/env python3
"""Writes man/notif-rules.7, the rule book of notif-parse and notif-responses, from
rules/rules.tsv, rules/responses.tsv and rules/sources.tsv; notif-responses's table of
answers, Sources/notif-responses/ResponseRule+Generated.swift, from rules/responses.tsv;
the rules as code, Sources/NotifModel/Rule+Generated.swift; and the words of each
diagnostic code, Sources/NotifModel/DiagnosticCode+Generated.swift, from the code list of
man/notif-diagnostics.7 (what SARIF's rule descriptors say of a code no row names).

usage: scripts/gen-rules.py [--check]

  (none)    write the four files
  --check   exit 1 (saying so) if one is not what the data gives

rules/rules.tsv has one row a rule, tab-separated, with a header line:

  id       a stable name of the rule, kebab-case
  format   the section it belongs to (Any message, Envelope, APNs, FCM HTTP v1, ...)
  path     the key path it is about, as the message writes it
  rule     what is checked: the condition that gives the verdict
  verdict  error (the record is rejected, exit 1), warning (kept) or ignored (nothing said)
  code     the diagnostic's code, or - for ignored
  vendor   what the vendor answers: the HTTP status and error, or what the device or
           browser does
  source   the key of the source in rules/sources.tsv
  fix      safe (--fix repairs it keeping what the device does: true where Apple documents
           1), unsafe (--unsafe-fixes repairs it toward what the author meant, which changes
           what the device does: a badge "5" that iOS ignores becomes 5), or - (no repair)

A row's cases are the blocks headed by its id in rules/cases/*.test (the shape is in
rules/cases/README); Tests/EndToEndTests/RuleBookTests.swift runs them and checks that every
row has its own.

rules/responses.tsv has one row a push service's answer, tab-separated, with a header line:

  id       a stable name of the row, kebab-case; the `rule` notif-responses writes
  service  apns, fcm, webpush, expo, sns, or any (a row of notif-responses's own)
  status   the HTTP status, a class (4xx, 5xx, 2xx), or - (none: Expo's tickets)
  reason   the vendor's reason, - (the answer has none), or * (any other)
  action   delivered, prune_token, retry, slow_down, fix_payload, fix_topic,
           fix_credentials or give_up
  vendor   what the vendor says the answer means: the record's `why`
  source   the key of the source in rules/sources.tsv
  case     the golden case that shows it, in Tests/EndToEndTests/cases/notif-responses

rules/sources.tsv: key, title, address; the page lists, in SOURCES, those the rows name.
Tests/EndToEndTests/RuleBookTests.swift checks the rows against the cases and the codes
notif-parse writes; this script checks their shape.
"""

import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
RULES = os.path.join(ROOT, "rules", "rules.tsv")
SOURCES = os.path.join(ROOT, "rules", "sources.tsv")
PAGE = os.path.join(ROOT, "man", "notif-rules.7")
RESPONSES = os.path.join(ROOT, "rules", "responses.tsv")
RESPONSE_CASES = os.path.join(ROOT, "Tests", "EndToEndTests", "cases", "notif-responses")
RESPONSE_SWIFT = os.path.join(ROOT, "Sources", "notif-responses", "ResponseRule+Generated.swift")
RESPONSE_COLUMNS = ["id", "service", "status", "reason", "action", "vendor", "source", "case"]
SERVICES = ["apns", "fcm", "webpush", "expo", "sns", "any"]
SERVICE_TITLES = {
    "apns": "APNs",
    "fcm": "FCM HTTP v1",
    "webpush": "Web Push",
    "expo": "Expo",
    "sns": "Amazon SNS",
    "any": "Every service",
}
ACTIONS = [
    "delivered",
    "prune_token",
    "retry",
    "slow_down",
    "fix_payload",
    "fix_topic",
    "fix_credentials",
    "give_up",
]

# What the example of EXAMPLES prints; the golden case man-example-1-fcm-sound-in-notification
# and ExamplesTests hold it to what notif-parse does.
EXAMPLE_OUTPUT = [
    "notif-parse: fcm-sound-in-notification.json:4:64: error: unknown field 'sound' in"
    " 'notification': FCM answers 400 INVALID_ARGUMENT; it has title, body and image"
    " [FCMUnknownField]",
    "notif-parse: 1 record in 1 file: 0 accepted, 1 rejected; 1 error, 0 warnings",
]

COLUMNS = ["id", "format", "path", "rule", "verdict", "code", "vendor", "source", "fix"]
FIXES = {
    "safe": "safe: --fix makes the smallest edit that keeps what the device does",
    "unsafe": "unsafe: --unsafe-fixes makes the smallest edit toward what the author meant,"
    " which changes what the device does",
}
RULE_CASES = os.path.join(ROOT, "rules", "cases")


def read_cases():
    """The blocks of rules/cases/*.test, by the id that heads them: (file, arguments, input
    lines, expected lines) each, in the files' order. The shape is in rules/cases/README."""
    cases = {}
    if not os.path.isdir(RULE_CASES):
        return cases
    for name in sorted(os.listdir(RULE_CASES)):
        if not name.endswith(".test"):
            continue
        with open(os.path.join(RULE_CASES, name), encoding="utf-8", errors="surrogateescape") as f:
            blocks = f.read().split("\n\n")
        for block in blocks:
            lines = [line for line in block.split("\n") if line and not line.startswith("#")]
            if not lines:
                continue
            rule, *arguments = lines[0].split(" ")
            rest = lines[1:]
            expected = [
                line for line in rest
                if line == "ok" or line.startswith(("error ", "warning "))
            ]
            given = rest[: len(rest) - len(expected)]
            cases.setdefault(rule, []).append((name, arguments, given, expected))
    return cases
VERDICTS = ["error", "warning", "ignored"]
# The sections, in the order of the page.
FORMATS = [
    "Any message",
    "Envelope",
    "APNs",
    "FCM HTTP v1",
    "FCM legacy HTTP",
    "Web Push",
    "Amazon SNS",
    "Expo",
    "Categories (--categories)",
    "Copy (--lint)",
]


def fail(message):
    sys.stderr.write("gen-rules: %s\n" % message)
    sys.exit(1)


def read_table(path, columns):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0].split("\t") != columns:
        fail("%s: the first line must be the header %s" % (path, "\\t".join(columns)))
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        cells = line.split("\t")
        if len(cells) != len(columns):
            fail("%s:%d: %d cells, not %d" % (path, number, len(cells), len(columns)))
        if any(not cell.strip() for cell in cells):
            fail("%s:%d: an empty cell" % (path, number))
        rows.append((number, dict(zip(columns, cells))))
    return rows


def text(value):
    """Text lines of mdoc: backslashes escaped, no request or macro at a line's start, and each
    sentence on a line of its own, as mdoc wants."""
    lines = []
    for sentence in re.split(r"(?<=[.?!]) +", value.replace("\\", "\\e")):
        if sentence.startswith((".", "'")):
            sentence = "\\&" + sentence
        lines.append(sentence)
    return "\n".join(lines)


def literal(value):
    """A line of a literal display: backslashes escaped, no request at its start."""
    value = value.replace("\\", "\\e")
    return "\\&" + value if value.startswith((".", "'")) else value


def labelled(label, value):
    """A labelled line of an entry, `Label: value`, after a break; value is text."""
    return ".br\n" + text("%s: %s" % (label, value))


def source_line(key, sources):
    """The Source line of an entry: the source's title, and its key in SOURCES in brackets."""
    return ".br\n%s\n.Bq Li %s" % (text("Source: " + sources[key]["title"]), key)


def address(value):
    """An address of rules/sources.tsv as mdoc: a link, with optional breaks (\\:) after its
    slashes, and after the hyphens of a part too long for a line of the list (65 columns at
    80), so that no line of the page is wider than 80 columns; an address in the notif
    sources as a path."""
    if not value.startswith("https://"):
        return ".Pa %s" % value
    parts = []
    for part in value[len("https://"):].split("/"):
        if len(part) > 60:
            part = part.replace("-", "-\\:")
        parts.append(part)
    return ".Lk https://%s" % "/\\:".join(parts)


def sources_section(rows, sources, emit):
    emit(".Sh SOURCES")
    emit("Where the rules and the answers come from, one entry for each key an entry above")
    emit("names: the title and the address.")
    emit("The same table is")
    emit(".Pa rules/sources.tsv ;")
    emit("a path is in the notif sources.")
    emit(".Bl -tag -width Ds")
    used = {row["source"] for row in rows}
    for key, source in sources.items():
        if key not in used:
            continue
        emit(".It Li %s" % key)
        emit(text(source["title"]))
        emit(".br")
        emit(address(source["address"]))
    emit(".El")


def responses(sources):
    rows = read_table(RESPONSES, RESPONSE_COLUMNS)
    seen = set()
    for number, row in rows:
        where = "%s:%d" % (RESPONSES, number)
        if row["id"] in seen:
            fail("%s: the id %s again" % (where, row["id"]))
        seen.add(row["id"])
        if row["service"] not in SERVICES:
            fail("%s: service %r is not one of %s" % (where, row["service"], ", ".join(SERVICES)))
        if not re.fullmatch(r"-|[1-5]xx|[1-5][0-9][0-9]", row["status"]):
            fail("%s: status %r is not a status, a class such as 4xx, or -" % (where, row["status"]))
        if not re.fullmatch(r"-|\*|[A-Za-z_]+", row["reason"]):
            fail("%s: reason %r is not a name, - or *" % (where, row["reason"]))
        if row["action"] not in ACTIONS:
            fail("%s: action %r is not one of %s" % (where, row["action"], ", ".join(ACTIONS)))
        if row["source"] not in sources:
            fail("%s: source %r is not in %s" % (where, row["source"], SOURCES))
        if '"' in row["vendor"] or "\\" in row["vendor"]:
            fail("%s: the vendor's words hold a quote or a backslash" % where)
        if not os.path.isdir(os.path.join(RESPONSE_CASES, row["case"])):
            fail("%s: no golden case notif-responses/%s" % (where, row["case"]))
    return [row for _, row in rows]


def camel(name):
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def swift_table(rows):
    out = [
        "// Generated by scripts/gen-rules.py from rules/responses.tsv: edit that and run the",
        "// script; make man-lint checks that this file is what the data gives.",
        "",
        "extension ResponseRule {",
        "  /// The rows of rules/responses.tsv, in order (notif-rules(7), RESPONSES).",
        "  static let table: [ResponseRule] = [",
    ]
    for row in rows:
        status = row["status"]
        if status == "-":
            status = ".none"
        elif status.endswith("xx"):
            status = ".hundreds(%s)" % status[0]
        else:
            status = ".exact(%s)" % status
        reason = {"-": ".none", "*": ".other"}.get(row["reason"], '.named("%s")' % row["reason"])
        out.append("    ResponseRule(")
        out.append('      id: "%s",' % row["id"])
        out.append("      service: .%s," % row["service"])
        out.append("      status: %s," % status)
        out.append("      reason: %s," % reason)
        out.append("      action: .%s," % camel(row["action"]))
        why = '      why: "%s"),' % row["vendor"]
        if len(why) <= 100:
            out.append(why)
        else:
            # As swift format lays out a string too long for its line.
            out.append("      why:")
            out.append('        "%s"' % row["vendor"])
            out.append("    ),")
    out.append("  ]")
    out.append("}")
    return "\n".join(out) + "\n"


def responses_section(rows, sources, emit):
    emit(".Sh RESPONSES")
    emit("What")
    emit(".Xr notif-responses 1")
    emit("makes of each answer of a push service, one entry each, named by the")
    emit(".Li rule")
    emit("the tool writes: the HTTP status and the vendor's reason, the action, the")
    emit("vendor's words (the record's")
    emit(".Li why ) ,")
    emit("the source that says so")
    emit(".Pq see Sx SOURCES ,")
    emit("and the golden case that shows it, in")
    emit(".Pa Tests/EndToEndTests/cases/notif-responses .")
    emit("The same table, one answer a line, is")
    emit(".Pa rules/responses.tsv ;")
    emit("the tool's table is made from it.")
    emit("A status class such as")
    emit(".Li 4xx")
    emit("is every status of the class that no row names; a reason")
    emit(".Li *")
    emit("is any reason that no row of the service names.")
    for service in SERVICES:
        group = [row for row in rows if row["service"] == service]
        if not group:
            continue
        emit(".Ss %s" % SERVICE_TITLES[service])
        emit(".Bl -tag -width Ds")
        for row in group:
            status = "no status" if row["status"] == "-" else row["status"]
            reason = {"-": "no reason", "*": "any other reason"}.get(row["reason"], row["reason"])
            emit(".It Li %s" % row["id"])
            emit("Answer:")
            if row["reason"] in ("-", "*"):
                emit("%s, %s" % (status, reason))
            else:
                emit("%s," % status)
                emit(".Li %s" % reason)
            emit(".br")
            emit("Action:")
            emit(".Sy %s" % row["action"])
            emit(labelled("Vendor", row["vendor"]))
            emit(source_line(row["source"], sources))
            emit(".br")
            emit("Case:")
            emit(".Pa %s" % row["case"])
        emit(".El")


def page():
    sources = {row["key"]: row for _, row in read_table(SOURCES, ["key", "title", "address"])}
    rules = read_table(RULES, COLUMNS)
    cases = read_cases()
    seen = set()
    by_format = {name: [] for name in FORMATS}
    for number, row in rules:
        where = "%s:%d" % (RULES, number)
        if row["id"] in seen:
            fail("%s: the id %s again" % (where, row["id"]))
        seen.add(row["id"])
        if row["format"] not in by_format:
            fail("%s: format %r is not one of %s" % (where, row["format"], ", ".join(FORMATS)))
        if row["verdict"] not in VERDICTS:
            fail("%s: verdict %r is not error, warning or ignored" % (where, row["verdict"]))
        if (row["code"] == "-") != (row["verdict"] == "ignored"):
            fail("%s: an ignored rule has no code, and every other one has one" % where)
        if row["source"] not in sources:
            fail("%s: source %r is not in %s" % (where, row["source"], SOURCES))
        if row["fix"] not in ("safe", "unsafe", "-"):
            fail("%s: fix %r is not safe, unsafe or -" % (where, row["fix"]))
        if row["fix"] != "-" and row["verdict"] == "ignored":
            fail("%s: an ignored rule finds nothing to fix" % where)
        by_format[row["format"]].append(row)

    out = []
    emit = out.append
    emit('.\\" Generated by scripts/gen-rules.py from rules/rules.tsv and rules/sources.tsv:')
    emit('.\\" edit those and run the script; make man-lint checks that this page is up to date.')
    emit(".Dd November 24, 2026")
    emit(".Dt NOTIF-RULES 7")
    emit(".Os")
    emit(".Sh NAME")
    emit(".Nm notif-rules")
    emit(".Nd the rules notif-parse checks push messages by, and what each vendor answers")
    emit(".Sh DESCRIPTION")
    emit("Every rule")
    emit(".Xr notif-parse 1")
    emit("checks a push message by, one entry each, named by the rule's id.")
    emit("An entry gives the key path the rule is about")
    emit(".Pq Key ,")
    emit("what it checks")
    emit(".Pq When ,")
    emit("its verdict and diagnostic code, what the vendor itself answers")
    emit("(the HTTP status and error of the push service, or what the device or the")
    emit("browser does), the source that says so (its title, and in brackets its key in")
    emit(".Sx SOURCES ,")
    emit("where its address is), and the file of")
    emit(".Pa rules/cases")
    emit("in the notif sources that holds its cases: a failing message and, where the rule")
    emit("has a boundary, a passing one.")
    emit("The same table, one rule a line, is")
    emit(".Pa rules/rules.tsv")
    emit("in the notif sources, from which this page is made.")
    emit(".Pp")
    emit("The verdict follows what the vendor does:")
    emit(".Bl -tag -width Ds")
    emit(".It Sy error")
    emit("The vendor refuses the message, or the device or browser shows nothing of it.")
    emit("The record is rejected and the exit status is 1.")
    emit(".It Sy warning")
    emit("The vendor takes the message but ignores, or reads otherwise, what the rule is about.")
    emit("The record is kept")
    emit(".Pq rejected with Fl -strict .")
    emit(".It Sy ignored")
    emit("The vendor takes it, and")
    emit(".Nm notif-parse")
    emit("says nothing: a rule people ask about.")
    emit(".El")
    emit(".Pp")
    emit("Where the vendors' rules leave room, notif's own are stricter, and the Vendor line")
    emit("says so: JSON is read as RFC 8259 has it, keys twice in an object are refused, a")
    emit("record's counts hold at most 2^53 \\- 1")
    emit(".Pq Xr notif 5 , Sx Limits ,")
    emit("and the options of a Web Push message in the service-worker shape, which the page's")
    emit("own service worker reads, are held to the types of")
    emit(".Fn showNotification .")
    emit("APNs itself does not look into")
    emit(".Li aps :")
    emit("a value of the wrong type there is delivered, and iOS drops or misreads it, so it is a")
    emit("warning, whose Vendor line says what iOS does, as for the other vendors' ignored")
    emit("values.")
    emit("Each format's reader in the sources")
    emit("(APNsReader, FCMReader, FCMLegacyReader, WebPushReader, SNSReader, ExpoReader)")
    emit("applies the rules of its section.")
    emit("The codes are in")
    emit(".Xr notif-diagnostics 7 .")
    for name in FORMATS:
        rows = by_format[name]
        if not rows:
            continue
        emit(".Ss %s" % name)
        emit(".Bl -tag -width Ds")
        for row in rows:
            emit(".It Li %s" % row["id"])
            emit("Key:")
            emit(".Li %s" % text(row["path"]))
            emit(labelled("When", row["rule"]))
            emit(".br")
            emit("Verdict:")
            if row["verdict"] == "ignored":
                emit(".Sy ignored")
            else:
                emit(".Sy %s ," % row["verdict"])
                emit(".Er %s" % row["code"])
            emit(labelled("Vendor", row["vendor"]))
            if row["fix"] != "-":
                emit(labelled("Fix", FIXES[row["fix"]]))
            emit(source_line(row["source"], sources))
            emit(".br")
            files = sorted({case[0] for case in cases.get(row["id"], [])})
            if files:
                emit("Cases:")
                emit(".Pa %s" % ", ".join("rules/cases/" + name for name in files))
            else:
                emit("Cases: none yet")
        emit(".El")
    answers = responses(sources)
    responses_section(answers, sources, emit)
    sources_section([row for _, row in rules] + answers, sources, emit)
    emit(".Sh EXAMPLES")
    emit("The file this example names is in the")
    emit(".Pa examples")
    emit("folder of the notif sources, where it runs as written.")
    emit(".Pp")
    emit("An FCM HTTP v1 message that puts")
    emit(".Li sound")
    emit("in its cross-platform")
    emit(".Li notification ,")
    emit("which FCM refuses")
    emit(".Pq rule Li fcm-sound-in-notification :")
    emit('.\\" exit 1')
    emit(".Bd -literal -offset indent")
    emit("notif-parse \\-\\-check fcm-sound-in-notification.json")
    emit(".Ed")
    emit(".Pp")
    emit("It prints this, shown with line breaks added:")
    emit('.\\" output joined')
    emit(".Bd -literal -offset indent")
    for line in EXAMPLE_OUTPUT:
        # Broken before a space, which begins the next line, to fit 80 columns.
        while len(line) > 66:
            cut = line.rindex(" ", 0, 66)
            emit(literal(line[:cut]))
            line = line[cut:]
        emit(literal(line))
    emit(".Ed")
    emit(".Sh SEE ALSO")
    emit(".Xr notif-parse 1 ,")
    emit(".Xr notif-responses 1 ,")
    emit(".Xr notif 5 ,")
    emit(".Xr notif-diagnostics 7")
    return "\n".join(out) + "\n"


RULE_SWIFT = os.path.join(ROOT, "Sources", "NotifModel", "Rule+Generated.swift")
DIAGNOSTICS_PAGE = os.path.join(ROOT, "man", "notif-diagnostics.7")
CODE_SWIFT = os.path.join(ROOT, "Sources", "NotifModel", "DiagnosticCode+Generated.swift")


def swift_string(value):
    """A Swift string literal of `value`."""
    out = []
    for char in value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n"):
        point = ord(char)
        if 0xDC80 <= point <= 0xDCFF:  # a byte that is not UTF-8, as surrogateescape reads it
            out.append("\\u{FFFD}")
        elif point < 0x20 or point == 0x7F:
            out.append("\\u{%X}" % point)
        else:
            out.append(char)
    return '"%s"' % "".join(out)


def example(case):
    """What --explain shows of a case: its input, after the arguments it needs."""
    _, arguments, given, _ = case
    text = "\n".join(given)
    if arguments:
        # The files are in the sources' rules/cases/files.
        words = ["rules/cases/" + word if word.startswith("files/") else word for word in arguments]
        text = ("notif-parse --check %s" % " ".join(words)) + ("\n" + text if text else "")
    return text


def examples(row, cases):
    """The failing and passing examples of a row for --explain, from its cases: the first that
    states its diagnostic (for an ignored row, the first that passes), and the first other one
    that passes; empty where there is none."""
    own = cases.get(row["id"], [])
    mark = "%s %s " % (row["verdict"], row["id"])
    failing = next((c for c in own if any(e.startswith(mark) for e in c[3])), None)
    passing = next((c for c in own if c[3] == ["ok"] and c is not failing), None)
    if row["verdict"] == "ignored":
        failing = None
    return [
        ("failing", swift_string(example(failing) if failing else "")),
        ("passing", swift_string(example(passing) if passing else "")),
    ]


def swift_rules(sources):
    """Sources/NotifModel/Rule+Generated.swift: the enum of rules/rules.tsv's rows, each with
    its id, code, verdict, words and source, so that a reader names the row it applies and
    the row's code comes from the book."""
    rows = [row for _, row in read_table(RULES, COLUMNS)]
    cases = read_cases()
    response_ids = {row["id"] for row in responses(sources)}
    for row in rows:
        if row["id"] in response_ids:
            fail("%s: the id %s is in rules/responses.tsv too: one namespace for both books"
                 % (RULES, row["id"]))
    out = [
        "// Generated by scripts/gen-rules.py from rules/rules.tsv and rules/sources.tsv: edit",
        "// those and run the script; make man-lint checks that this file is what they give.",
        "",
        "extension Rule {",
        "  /// The rows of rules/rules.tsv, in order: `table[Int(rule.rawValue)]` is `rule`'s.",
        "  static let table: [RuleEntry] = [",
    ]
    for row in rows:
        source = sources[row["source"]]
        verdict = {"error": ".error", "warning": ".warning", "ignored": "nil"}[row["verdict"]]
        out.append("    RuleEntry(")
        for label, value in [
            ("id", swift_string(row["id"])),
            ("format", swift_string(row["format"])),
            ("path", swift_string(row["path"])),
            ("summary", swift_string(row["rule"])),
            ("verdict", verdict),
            ("code", swift_string(row["code"])),
            ("vendor", swift_string(row["vendor"])),
            ("sourceTitle", swift_string(source["title"])),
            ("sourceAddress", swift_string(source["address"])),
            ("fix", {"safe": ".safe", "unsafe": ".unsafe", "-": "nil"}[row["fix"]]),
        ] + examples(row, cases):
            line = "      %s: %s," % (label, value)
            if label == "passing":
                line = line[:-1] + "),"
            if len(line) <= 100:
                out.append(line)
            else:
                # As swift format lays out a string too long for its line.
                out.append("      %s:" % label)
                out.append("        %s%s" % (value, "" if label == "passing" else ","))
                if label == "passing":
                    out.append("    ),")
    out.append("  ]")
    out.append("}")
    out.append("")
    out.append("/// A rule of notif-parse's rule book, rules/rules.tsv (notif-rules(7)), by its row.")
    out.append("public enum Rule: UInt16, CaseIterable, Sendable {")
    for row in rows:
        out.append("  /// `%s`" % row["id"])
        out.append("  case %s" % camel(row["id"].replace("-", "_")))
    out.append("}")
    return "\n".join(out) + "\n"


def roff_text(value):
    """`value`, a line of roff text, as plain text."""
    for escape, plain in [("\\-", "-"), ("\\&", ""), ("\\(em", "\u2014"), ("\\(aq", "'"),
                          ("\\e", "\\")]:
        value = value.replace(escape, plain)
    return value


def mdoc_line(line):
    """A macro line of a diagnostic's entry as plain text, and how it joins what follows:
    ("(", "open") for .Po, (")...", "close") for .Pc, else (text, "word"); None for a macro
    that writes nothing."""
    words = line[1:].split()
    name, args = words[0], words[1:]
    trail = ""
    while args and args[-1] in (".", ",", ";", ":", ")", "?", "!"):
        trail = args.pop() + trail
    args = [roff_text(arg.strip('"')) for arg in args]
    # A macro inside .Pq: its words only.
    args = [arg for arg in args if arg not in ("Li", "Ql", "Ar", "Pa")]
    if name == "Xr":
        return "%s(%s)%s" % (args[0], args[1], trail), "word"
    if name == "Fl":
        return " ".join("-" + arg for arg in args) + trail, "word"
    if name == "Ql":
        return "'%s'%s" % (" ".join(args), trail), "word"
    if name == "Dq":
        return '"%s"%s' % (" ".join(args), trail), "word"
    if name == "Pq":
        return "(%s)%s" % (" ".join(args), trail), "word"
    if name == "Po":
        return "(", "open"
    if name == "Pc":
        return ")" + trail, "close"
    if name in ("Li", "Er", "Pa", "Ar", "Ev", "Sy", "Em"):
        return " ".join(args) + trail, "word"
    return None


def diagnostic_codes():
    """The codes of notif-diagnostics(7)'s list, in its order, each with the first paragraph
    of its entry as text, less the sentence that names the tools: [(code, text)]."""
    with open(DIAGNOSTICS_PAGE, encoding="utf-8") as f:
        lines = f.read().split("\n")
    try:
        start = lines.index(".Bl -tag -width Ds")
    except ValueError:
        fail("%s: no code list (.Bl -tag -width Ds)" % DIAGNOSTICS_PAGE)
    entries = []
    done = True  # whether the entry's first paragraph has ended
    for line in lines[start + 1:]:
        if line.startswith(".El"):
            break
        found = re.match(r"\.It Er (\w+)$", line)
        if found:
            entries.append((found.group(1), []))
            done = False
        elif not done and line.startswith((".Pp", ".Bd", ".Bl")):
            done = True
        elif not done and entries:
            entries[-1][1].append(line)
    codes = []
    for code, body in entries:
        text = ""
        for line in body:
            if not line.startswith("."):
                text += roff_text(line) + " "
                continue
            made = mdoc_line(line)
            if made is None:
                continue
            piece, join = made
            if join == "close":
                text = text.rstrip() + piece + " "
            else:
                text += piece + ("" if join == "open" else " ")
        text = re.sub(r"\s+", " ", text).strip()
        tools = re.match(r"An? [^.]*\. ", text)
        if not tools:
            fail("%s: the entry of %s does not open with the tools that write it"
                 % (DIAGNOSTICS_PAGE, code))
        codes.append((code, text[tools.end():]))
    return codes


def swift_codes():
    """Sources/NotifModel/DiagnosticCode+Generated.swift: each code's words, for SARIF."""
    out = [
        "// Generated by scripts/gen-rules.py from the code list of man/notif-diagnostics.7: edit",
        "// the page and run the script; make man-lint checks that this file is what it gives.",
        "",
        "extension DiagnosticCode {",
        "  /// The codes of notif-diagnostics(7), in its order, with their entries' words.",
        "  static let table: [DiagnosticCode] = [",
    ]
    for code, text in diagnostic_codes():
        line = "    DiagnosticCode(%s, %s)," % (swift_string(code), swift_string(text))
        if len(line) <= 100:
            out.append(line)
            continue
        # A string too long for its line, as swift format lays it out.
        out.append("    DiagnosticCode(")
        out.append("      %s," % swift_string(code))
        out.append("      %s" % swift_string(text))
        out.append("    ),")
    out.append("  ]")
    out.append("}")
    return "\n".join(out) + "\n"


def main():
    args = sys.argv[1:]
    if args not in ([], ["--check"]):
        sys.stderr.write("usage: scripts/gen-rules.py [--check]\n")
        sys.exit(2)
    sources = {row["key"]: row for _, row in read_table(SOURCES, ["key", "title", "address"])}
    outputs = [
        (PAGE, page()),
        (RESPONSE_SWIFT, swift_table(responses(sources))),
        (RULE_SWIFT, swift_rules(sources)),
        (CODE_SWIFT, swift_codes()),
    ]
    names = ", ".join(os.path.relpath(path, ROOT) for path, _ in outputs)
    count = len(read_table(RULES, COLUMNS)) + len(responses(sources))
    if args == ["--check"]:
        for path, wanted in outputs:
            try:
                with open(path, encoding="utf-8") as f:
                    current = f.read()
            except FileNotFoundError:
                current = None
            if current != wanted:
                fail("%s is not what rules/ gives: run scripts/gen-rules.py"
                     % os.path.relpath(path, ROOT))
        print("gen-rules: %s are up to date (%d rules)" % (names, count))
        return
    for path, made in outputs:
        with open(path, "w", encoding="utf-8") as f:
            f.write(made)
    print("gen-rules: wrote %s (%d rules)" % (names, count))


if __name__ == "__main__":
    main()
