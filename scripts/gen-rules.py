#!/usr/bin/env python3
"""Writes man/notif-rules.7, the rule book of notif-parse and notif-responses, from
rules/rules.tsv, rules/responses.tsv and rules/sources.tsv, and notif-responses's table of
answers, Sources/notif-responses/ResponseRule+Generated.swift, from rules/responses.tsv.

usage: scripts/gen-rules.py [--check]

  (none)    write man/notif-rules.7 and Sources/notif-responses/ResponseRule+Generated.swift
  --check   exit 1 (saying so) if either is not what the data gives

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
  case     the golden case that shows the verdict, in Tests/EndToEndTests/cases/notif-parse

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

rules/sources.tsv: key, title, address. Tests/EndToEndTests/RuleBookTests.swift checks the
rows against the cases and the codes notif-parse writes; this script checks their shape.
"""

import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
RULES = os.path.join(ROOT, "rules", "rules.tsv")
SOURCES = os.path.join(ROOT, "rules", "sources.tsv")
PAGE = os.path.join(ROOT, "man", "notif-rules.7")
CASES = os.path.join(ROOT, "Tests", "EndToEndTests", "cases", "notif-parse")
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

COLUMNS = ["id", "format", "path", "rule", "verdict", "code", "vendor", "source", "case"]
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
    emit("makes of each answer of a push service, one entry each: the HTTP status and the")
    emit("vendor's reason, the action, the vendor's words (the record's")
    emit(".Li why ) ,")
    emit("the source that says so, and the golden case that shows it.")
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
            source = sources[row["source"]]
            status = "no status" if row["status"] == "-" else row["status"]
            reason = {"-": "no reason", "*": "any other reason"}.get(row["reason"], row["reason"])
            emit(".It %s , Li %s" % (status, reason))
            emit('.Bl -tag -width "vendor says" -compact')
            emit(".It action")
            emit(".Sy %s" % row["action"])
            emit(".It vendor says")
            emit(text(row["vendor"][0].upper() + row["vendor"][1:] + "."))
            emit(".It source")
            if source["address"].startswith("https://"):
                emit('.Lk %s "%s"' % (source["address"], source["title"].replace('"', "'")))
            else:
                emit(text(source["title"]))
            emit(".It case")
            emit(".Pa notif-responses/%s" % row["case"])
            emit(".It rule")
            emit(".Li %s" % row["id"])
            emit(".El")
        emit(".El")


def page():
    sources = {row["key"]: row for _, row in read_table(SOURCES, ["key", "title", "address"])}
    rules = read_table(RULES, COLUMNS)
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
        if not os.path.isdir(os.path.join(CASES, row["case"])):
            fail("%s: no golden case notif-parse/%s" % (where, row["case"]))
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
    emit("checks a push message by, one entry each: the key path it is about,")
    emit("what it checks, its verdict and diagnostic code, what the vendor itself answers")
    emit("(the HTTP status and error of the push service, or what the device or the")
    emit("browser does), the source that says so, and the golden case of the notif")
    emit("sources that shows it.")
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
    emit("Where the vendors' rules leave room, notif's own are stricter, and the vendor column")
    emit("says so: JSON is read as RFC 8259 has it, keys twice in an object are refused, a")
    emit("record's counts hold at most 2^53 \\- 1")
    emit(".Pq Xr notif 5 , Sx Limits ,")
    emit("and the options of a Web Push message in the service-worker shape, which the page's")
    emit("own service worker reads, are held to the types of")
    emit(".Fn showNotification .")
    emit("APNs itself does not look into")
    emit(".Li aps :")
    emit("a value of the wrong type there is an error all the same, where the vendor column")
    emit("says what iOS does with it (it drops the value), and not a warning as the other")
    emit("vendors' ignored values are.")
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
            source = sources[row["source"]]
            emit(".It Li %s" % text(row["path"]))
            emit(text(row["rule"][0].upper() + row["rule"][1:] + "."))
            emit('.Bl -tag -width "vendor answers" -compact')
            emit(".It verdict")
            if row["verdict"] == "ignored":
                emit(".Sy ignored")
            else:
                emit(".Sy %s ," % row["verdict"])
                emit(".Er %s" % row["code"])
            emit(".It vendor answers")
            emit(text(row["vendor"]))
            emit(".It source")
            if source["address"].startswith("https://"):
                emit('.Lk %s "%s"' % (source["address"], source["title"].replace('"', "'")))
            else:
                emit(text(source["title"]))
            emit(".It case")
            emit(".Pa notif-parse/%s" % row["case"])
            emit(".It rule")
            emit(".Li %s" % row["id"])
            emit(".El")
        emit(".El")
    responses_section(responses(sources), sources, emit)
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
    emit('.\\" output')
    emit(".Bd -literal -offset indent")
    for line in EXAMPLE_OUTPUT:
        emit(text(line))
    emit(".Ed")
    emit(".Sh SEE ALSO")
    emit(".Xr notif-parse 1 ,")
    emit(".Xr notif-responses 1 ,")
    emit(".Xr notif 5 ,")
    emit(".Xr notif-diagnostics 7")
    return "\n".join(out) + "\n"


def main():
    args = sys.argv[1:]
    if args not in ([], ["--check"]):
        sys.stderr.write("usage: scripts/gen-rules.py [--check]\n")
        sys.exit(2)
    made = page()
    sources = {row["key"]: row for _, row in read_table(SOURCES, ["key", "title", "address"])}
    table = swift_table(responses(sources))
    if args == ["--check"]:
        for path, wanted in [(PAGE, made), (RESPONSE_SWIFT, table)]:
            try:
                with open(path, encoding="utf-8") as f:
                    current = f.read()
            except FileNotFoundError:
                current = None
            if current != wanted:
                fail("%s is not what rules/ gives: run scripts/gen-rules.py"
                     % os.path.relpath(path, ROOT))
        print("gen-rules: man/notif-rules.7 and ResponseRule+Generated.swift are up to date"
              " (%d rules)" % made.count(".It rule"))
        return
    with open(PAGE, "w", encoding="utf-8") as f:
        f.write(made)
    with open(RESPONSE_SWIFT, "w", encoding="utf-8") as f:
        f.write(table)
    print("gen-rules: wrote man/notif-rules.7 and ResponseRule+Generated.swift (%d rules)"
          % made.count(".It rule"))


if __name__ == "__main__":
    main()
