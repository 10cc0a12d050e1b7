#!/usr/bin/env python3
"""Generate the CLDR data of NotifLocalization (notif-summarize, notif-digest) from Babel.

Writes
  Sources/NotifLocalization/CLDRData+Generated.swift
      for every locale Babel knows (babel.localedata.locale_identifiers(), plus root): its
      cardinal plural rules, in CLDR's rule syntax, and its "standard" list patterns
      (start, middle, end, 2). Identical rule sets and pattern sets are stored once and
      referenced by index; CLDR's parent locales that are not the truncated tag (the explicit
      ones and the "nonlikelyScript" ones, such as sr_Latn -> root) are listed for the
      fallback chain, and language_Region tags that CLDR has only with a script (zh_TW is
      zh_Hant_TW, by likely subtags) as aliases.
  Tests/NotifLocalizationTests/Fixtures/cldr-plural-samples.json
      for every locale, the plural category Babel's own plural function gives for a set of
      integers and decimals written as strings (visible fraction digits kept), which the
      Swift evaluator must reproduce exactly.

Generated with Babel 2.18.0, CLDR 47 (the versions are also written into the outputs).
CI does not run this script: both outputs are committed. To regenerate:

    pip install babel
    scripts/gen-cldr.py

Babel does not implement the compact-decimal operands c and e (it takes them as 0); neither
do the numbers notif-summarize formats (plain integers), so the fixture agrees with both.
"""

import decimal
import json
import os
import sys

import babel
from babel import Locale
from babel.core import get_global
from babel import localedata

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SWIFT_OUT = os.path.join(ROOT, "Sources", "NotifLocalization", "CLDRData+Generated.swift")
FIXTURE_OUT = os.path.join(
    ROOT, "Tests", "NotifLocalizationTests", "Fixtures", "cldr-plural-samples.json")

CATEGORIES = ["zero", "one", "two", "few", "many"]
LETTERS = {"zero": "z", "one": "o", "two": "t", "few": "f", "many": "m", "other": "x"}

INTEGERS = list(range(0, 201)) + [
    201, 211, 1000, 1001, 1011, 10000, 100000, 1000000, 1000001, 2000000, 10000000,
    1000000000]
DECIMALS = [
    "0.0", "1.0", "1.5", "2.10", "0.01", "1.000", "0.1", "0.5", "2.0", "3.5", "10.0",
    "11.1", "21.0", "1.1", "0.2", "1.01", "5.25", "100.0", "1000000.0", "2.5", "1.10",
    "3.0", "0.10", "1.2", "22.5", "101.5", "0.11", "1.11", "4.3", "6.0", "0.00", "7.90",
    "12.5", "1000.5", "0.7", "1.7", "2.1", "3.1", "5.0", "13.13",
]


def render(node):
    """Renders Babel's rule AST in CLDR syntax (=, !=, %, .., commas)."""
    kind, args = node
    if kind == "or":
        return " or ".join(render(a) for a in args)
    if kind == "and":
        for a in args:
            assert a[0] != "or", "an 'or' inside an 'and' has no CLDR spelling"
        return " and ".join(render(a) for a in args)
    if kind == "not":
        (relation,) = args
        return render_relation(relation, negated=True)
    if kind == "relation":
        return render_relation(node, negated=False)
    raise ValueError(f"unknown node {kind}")


def render_relation(node, negated):
    kind, (method, expr, ranges) = node
    assert kind == "relation" and method == "in", node
    if expr[0] == "mod":
        (name, _), (_, (divisor,)) = expr[1]
        left = f"{name} % {divisor}"
    else:
        left = expr[0]
    items = []
    for (_, (low,)), (_, (high,)) in ranges[1]:
        items.append(str(low) if low == high else f"{low}..{high}")
    return f"{left} {'!=' if negated else '='} {','.join(items)}"


def main():
    identifiers = sorted(set(localedata.locale_identifiers()) | {"root"})
    rule_sets, rule_index = [], {}
    list_sets, list_index = [], {}
    table = []
    samples = {}
    numbers = [str(n) for n in INTEGERS] + DECIMALS
    for ident in identifiers:
        locale = Locale.parse(ident)
        form = locale.plural_form
        rendered = dict((tag, render(ast)) for tag, ast in form.abstract)
        rules = tuple((tag, rendered[tag]) for tag in CATEGORIES if tag in rendered)
        if rules not in rule_index:
            rule_index[rules] = len(rule_sets)
            rule_sets.append(rules)
        patterns = locale.list_patterns.get("standard")
        pattern = tuple(patterns[k] for k in ("start", "middle", "end", "2"))
        if pattern not in list_index:
            list_index[pattern] = len(list_sets)
            list_sets.append(pattern)
        table.append((ident, rule_index[rules], list_index[pattern]))
        letters = []
        for text in numbers:
            value = int(text) if "." not in text else decimal.Decimal(text)
            letters.append(LETTERS[form(value)])
        samples[ident] = "".join(letters)

    # CLDR's parentLocales, as Babel applies them: the explicit exceptions, and root for a
    # language_Script locale whose script is not the language's likely one (CLDR 45's
    # "nonlikelyScript" rule), e.g. sr_Latn.
    parents = dict(get_global("parent_exceptions"))
    for ident in identifiers:
        if ident not in parents and localedata._is_non_likely_script(ident):
            parents[ident] = "root"
    cldr = get_global("cldr")["version"]
    # language_Region tags that CLDR has only with a script, by likely subtags: zh_TW is
    # zh_Hant_TW, not zh (which is zh_Hans).
    likely = get_global("likely_subtags")
    aliases = {}
    for ident in identifiers:
        parts = ident.split("_")
        if len(parts) == 3 and len(parts[1]) == 4:
            short = parts[0] + "_" + parts[2]
            if short not in identifiers and likely.get(short) == ident:
                aliases[short] = ident

    def swift_string(text):
        out = '"'
        for ch in text:
            if ch in '"\\':
                out += "\\" + ch
            elif ord(ch) < 0x20:
                out += "\\u{%x}" % ord(ch)
            else:
                out += ch
        return out + '"'

    lines = [
        "// Generated by scripts/gen-cldr.py from Babel %s (CLDR %s). Do not edit." % (
            babel.__version__, cldr),
        "// Cardinal plural rules and \"standard\" list patterns for every locale CLDR defines.",
        "",
        "/// CLDR data: plural rules and list patterns, shared between locales by index.",
        "enum CLDRData {",
        "  /// The CLDR release the data comes from.",
        "  static let version = %s" % swift_string(cldr),
        "  /// The Babel release that extracted it.",
        "  static let babelVersion = %s" % swift_string(babel.__version__),
        "",
        "  /// Distinct cardinal rule sets: `category: rule` pairs joined by `;`",
        "  /// (`other` is implicit).",
        "  static let pluralRuleSets: [String] = [",
    ]
    for rules in rule_sets:
        lines.append("    %s," % swift_string("; ".join(f"{t}: {r}" for t, r in rules)))
    lines += [
        "  ]",
        "",
        "  /// Distinct list patterns: start, middle, end and the two-element pattern.",
        "  static let listPatternSets: [(String, String, String, String)] = [",
    ]
    for p in list_sets:
        lines.append("    (%s)," % ", ".join(swift_string(x) for x in p))
    lines += [
        "  ]",
        "",
        "  /// Every locale: `identifier plural-index list-index`, one per line, sorted.",
        "  static let locales = \"\"\"",
    ]
    for ident, r, l in table:
        lines.append("    %s %d %d" % (ident, r, l))
    lines += [
        "    \"\"\"",
        "",
        "  /// CLDR's parent locales where the parent is not the truncated tag:",
        "  /// `child parent`, one per line.",
        "  static let parents = \"\"\"",
    ]
    for child in sorted(parents):
        lines.append("    %s %s" % (child, parents[child]))
    lines += [
        "    \"\"\"",
        "",
        "  /// Language and region tags CLDR has only with a script (likely subtags):",
        "  /// `tag identifier`, one per line.",
        "  static let aliases = \"\"\"",
    ]
    for short in sorted(aliases):
        lines.append("    %s %s" % (short, aliases[short]))
    lines += ["    \"\"\"", "}", ""]
    with open(SWIFT_OUT, "w", encoding="utf-8") as out:
        out.write("\n".join(lines))

    fixture = {
        "generator": "scripts/gen-cldr.py",
        "babel": babel.__version__,
        "cldr": cldr,
        "letters": "z zero, o one, t two, f few, m many, x other",
        "numbers": numbers,
        "locales": samples,
    }
    with open(FIXTURE_OUT, "w", encoding="utf-8") as out:
        json.dump(fixture, out, ensure_ascii=False, indent=0, sort_keys=True)
        out.write("\n")
    print(f"{len(identifiers)} locales, {len(rule_sets)} plural rule sets, "
          f"{len(list_sets)} list pattern sets", file=sys.stderr)


if __name__ == "__main__":
    main()
