#!/usr/bin/env python3
"""Generate NotifText's table of terminal display widths, and the samples that test it.

Writes
  Sources/NotifText/DisplayWidthTable.swift
      every code point range whose width is not 1, as (first, last, width), sorted; and the
      code points that U+FE0F (VARIATION SELECTOR-16, emoji presentation) widens to two
      columns.
  Tests/NotifTextTests/WidthSamples.swift
      wcwidth's own answers for code points and strings of CJK, emoji, combining marks and
      right-to-left scripts, which the Swift code must reproduce.

The widths, per code point:
  2  East_Asian_Width Wide (W) or Fullwidth (F). Since Unicode 9, UAX #11 makes every
     Emoji_Presentation character W, so the emoji are here too; the regional indicators
     (Emoji_Presentation, EAW N) are added as wcwidth adds them. The generator checks, with
     the `regex` module's \\p{Emoji_Presentation} where it is installed, that no
     Emoji_Presentation character is left at 1.
  0  the nonspacing and enclosing marks (Mn, Me), ZERO WIDTH JOINER, the variation
     selectors and the other format characters that show nothing (Cf, but not the soft
     hyphen nor the prepended concatenation marks such as U+0600, which show), the Hangul
     medial vowels and final consonants (U+1160-U+11FF, U+D7B0-U+D7FF: they join the
     syllable before them), U+2028 and U+2029; and the C0 and C1 controls, where wcwidth
     says -1 ("not printable"): they show nothing, and a width is never negative here.
  1  everything else, spacing combining marks (Mc) included: they take room, as in glibc's
     wcwidth(3); wcwidth 0.7 counts them 0 and makes up for it in wcswidth.

A text is as wide as the sum of its grapheme clusters (Swift's `Character`s); a cluster is as
wide as its widest code point, and two columns when U+FE0F follows a base of emoji-variation-
sequences.txt (`❤️`). So a flag, a ZWJ sequence or a skin tone takes two columns, as in wcwidth's
wcswidth; Indic conjuncts are counted narrower than wcwidth's virama rules count them (`क्ष`
is 1 here, 2 there), and are left out of the string samples.

Every table comes from wcwidth 0.7.0, which ships the data of Unicode 17.0.0 (EastAsianWidth,
DerivedGeneralCategory; the variation-sequence bases of emoji-variation-sequences.txt): Python
3.11's unicodedata is Unicode 14, too old for the newest emoji. The generator compares every
code point with wcwidth.wcwidth and stops on any difference but the Mc and control rules above.
CI does not run this script: both outputs are committed. To regenerate:

    pip install wcwidth==0.7.0 regex
    scripts/gen-width.py
"""

import os
import sys

import wcwidth
from wcwidth.table_mc import CATEGORY_MC
from wcwidth.table_vs16 import VS16_NARROW_TO_WIDE
from wcwidth.table_wide import WIDE_EASTASIAN
from wcwidth.table_zero import ZERO_WIDTH

WCWIDTH_VERSION = "0.7.0"
UNICODE_VERSION = "17.0.0"
VS16_VERSION = "9.0.0"  # the key wcwidth files its variation-sequence bases under

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
TABLE_OUT = os.path.join(ROOT, "Sources", "NotifText", "DisplayWidthTable.swift")
SAMPLES_OUT = os.path.join(ROOT, "Tests", "NotifTextTests", "WidthSamples.swift")

# Code points to test, by kind: wcwidth's answer for each goes into the samples.
SCALAR_SAMPLES = {
    "ASCII and Latin": [0x20, 0x41, 0x7A, 0x7E, 0xA0, 0xAD, 0xE9, 0x17F, 0x2010],
    "CJK": [0x1100, 0x115F, 0x2E80, 0x3000, 0x3041, 0x30A2, 0x3400, 0x4E00, 0x6F22, 0x9FFF,
            0xA960, 0xAC00, 0xD7A3, 0xF900, 0xFE30, 0xFF01, 0xFF21, 0xFF61, 0xFFE0, 0x20000,
            0x2A6DF, 0x30000, 0x3FFFD],
    "emoji": [0x231A, 0x23F0, 0x2614, 0x26A1, 0x2705, 0x2764, 0x1F004, 0x1F1E6, 0x1F1FF,
              0x1F300, 0x1F600, 0x1F64F, 0x1F680, 0x1F6B2, 0x1F6FF, 0x1F90C, 0x1F9FF,
              0x1FA70, 0x1FA77, 0x1FA80, 0x1FAE0, 0x1FAF8, 0x1F3FB, 0x1F3FF, 0x263A, 0x2B50],
    "combining and joining": [0x300, 0x301, 0x36F, 0x483, 0x488, 0x20DD, 0x20E3, 0x1AB0,
                              0x1DC0, 0x200B, 0x200C, 0x200D, 0x2060, 0xFE00, 0xFE0E, 0xFE0F,
                              0xFEFF, 0x1160, 0x11A8, 0xD7B0, 0xE0001, 0xE0020, 0xE0100,
                              0x2028, 0x2029],
    "right to left": [0x5D0, 0x5E9, 0x5B0, 0x5B8, 0x5C1, 0x627, 0x645, 0x64B, 0x64E, 0x652,
                      0x670, 0x600, 0x6DD, 0x61C, 0x200E, 0x200F, 0x202B, 0x2067, 0x700,
                      0x711, 0x7C0, 0xFB1D, 0xFE70, 0x10800],
}

STRING_SAMPLES = [
    "notif", "漢字", "かなカナ", "한국어", "Ｆｕｌｌ", "ｶﾀｶﾅ", "🚀", "🪀", "😀🚀🪀🫠",
    "👨\u200d👩\u200d👧", "🇫🇷🇯🇵", "👍🏽", "🧑🏻\u200d💻", "❤️", "❤", "#️⃣", "🏳️\u200d🌈",
    "☺️ok", "e\u0301", "é", "a\u0308\u0301", "\u1100\u1161\u11a8", "a\u200bb",
    "שָׁלוֹם", "مَرْحَبًا", "ܫܠܡܐ", "\u200fשלום\u200f", "Hello, 世界! 🌏",
    "Ça va? Très bien.", "ภาษาไทย",
]


def ranges_to_set(ranges):
    points = set()
    for first, last in ranges:
        points.update(range(first, last + 1))
    return points


WIDE = ranges_to_set(WIDE_EASTASIAN[UNICODE_VERSION])
ZERO = ranges_to_set(ZERO_WIDTH[UNICODE_VERSION]) - ranges_to_set(CATEGORY_MC[UNICODE_VERSION])
VS16_BASES = ranges_to_set(VS16_NARROW_TO_WIDE[VS16_VERSION])


def width(cp):
    if cp < 0x20 or 0x7F <= cp < 0xA0:
        return 0
    if cp in ZERO:
        return 0
    if cp in WIDE:
        return 2
    return 1


def cluster_width(cluster):
    widest = max(width(ord(c)) for c in cluster)
    if widest < 2 and "\ufe0f" in cluster[1:] and ord(cluster[0]) in VS16_BASES:
        return 2
    return widest


def text_width(text):
    return sum(cluster_width(g) for g in wcwidth.iter_graphemes(text))


def check():
    """Stops unless the table is wcwidth's but for the documented rules."""
    mc = ranges_to_set(CATEGORY_MC[UNICODE_VERSION])
    for cp in range(0x110000):
        ours = width(cp)
        theirs = wcwidth.wcwidth(chr(cp))
        if ours == theirs:
            continue
        if theirs == -1 and ours == 0:
            continue  # a control
        if cp in mc and theirs == 0 and ours == 1:
            continue  # a spacing mark
        sys.exit(f"gen-width: U+{cp:04X} is {ours} here, {theirs} in wcwidth")
    try:
        import regex
    except ImportError:
        print("gen-width: regex is not installed: Emoji_Presentation not checked", file=sys.stderr)
        return
    for cp in range(0x110000):
        if regex.match(r"\p{Emoji_Presentation}", chr(cp)) and width(cp) != 2:
            sys.exit(f"gen-width: U+{cp:04X} is Emoji_Presentation but {width(cp)} columns wide")


def merged_ranges():
    """The (first, last, width) runs of code points whose width is not 1."""
    runs = []
    for cp in range(0x110000):
        w = width(cp)
        if w == 1:
            continue
        if runs and runs[-1][1] == cp - 1 and runs[-1][2] == w:
            runs[-1][1] = cp
        else:
            runs.append([cp, cp, w])
    return runs


def runs_of(points):
    runs = []
    for cp in sorted(points):
        if runs and runs[-1][1] == cp - 1:
            runs[-1][1] = cp
        else:
            runs.append([cp, cp])
    return runs


def swift_string(text):
    """A Swift string literal with every code point outside printable ASCII escaped."""
    out = []
    for c in text:
        if 0x20 <= ord(c) < 0x7F and c not in '"\\':
            out.append(c)
        else:
            out.append("\\u{%X}" % ord(c))
    return '"' + "".join(out) + '"'


HEADER = """\
// Generated by scripts/gen-width.py from the tables of wcwidth {wcwidth} (Unicode {unicode}): do
// not edit. The rules are in the script's docstring and in DisplayWidth.swift.
"""


def write_table():
    runs = merged_ranges()
    bases = runs_of(VS16_BASES)
    lines = [HEADER.format(wcwidth=WCWIDTH_VERSION, unicode=UNICODE_VERSION).rstrip("\n"), ""]
    lines.append("extension DisplayWidth {")
    lines.append(f'  /// The Unicode version of the tables: {UNICODE_VERSION}.')
    lines.append(f'  public static let unicodeVersion = "{UNICODE_VERSION}"')
    lines.append("")
    lines.append("  /// The code points whose width is not 1, as sorted runs that do not overlap:")
    lines.append("  /// `(first, last, width)`.")
    lines.append("  static let runs: [(first: UInt32, last: UInt32, width: UInt8)] = [")
    for first, last, w in runs:
        lines.append(f"    (0x{first:05X}, 0x{last:05X}, {w}),")
    lines.append("  ]")
    lines.append("")
    lines.append("  /// The code points that U+FE0F makes two columns wide (emoji-variation-sequences.txt),")
    lines.append("  /// as sorted runs: `(first, last)`.")
    lines.append("  static let emojiVariationBases: [(first: UInt32, last: UInt32)] = [")
    for first, last in bases:
        lines.append(f"    (0x{first:05X}, 0x{last:05X}),")
    lines.append("  ]")
    lines.append("}")
    with open(TABLE_OUT, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    return len(runs), len(bases)


def write_samples():
    lines = [HEADER.format(wcwidth=WCWIDTH_VERSION, unicode=UNICODE_VERSION).replace(
        "The rules are in the script's docstring and in DisplayWidth.swift.",
        "wcwidth's own answers, which NotifText must give.").rstrip("\n"), ""]
    lines.append("/// Code points, by kind, with their width in wcwidth.wcwidth: -1 (a control) is 0")
    lines.append("/// here, and a spacing mark (Mc) 1; the samples hold neither.")
    lines.append("enum WidthSamples {")
    lines.append("  static let scalars: [(kind: String, scalar: UInt32, width: Int)] = [")
    for kind, points in SCALAR_SAMPLES.items():
        for cp in points:
            theirs = wcwidth.wcwidth(chr(cp))
            if theirs != width(cp):
                sys.exit(f"gen-width: sample U+{cp:04X} is {width(cp)} here, {theirs} in wcwidth")
            lines.append(f'    ("{kind}", 0x{cp:05X}, {theirs}),')
    lines.append("  ]")
    lines.append("")
    lines.append("  /// Texts with their width in wcwidth.wcswidth, which measures grapheme clusters.")
    lines.append("  static let strings: [(text: String, width: Int)] = [")
    for text in STRING_SAMPLES:
        theirs = wcwidth.wcswidth(text)
        if theirs != text_width(text):
            sys.exit(f"gen-width: sample {text!r} is {text_width(text)} here, {theirs} in wcwidth")
        lines.append(f"    ({swift_string(text)}, {theirs}),")
    lines.append("  ]")
    lines.append("}")
    with open(SAMPLES_OUT, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")


def main():
    if wcwidth.__version__ != WCWIDTH_VERSION:
        sys.exit(f"gen-width: wcwidth {WCWIDTH_VERSION} is required, not {wcwidth.__version__}")
    check()
    runs, bases = write_table()
    write_samples()
    print(f"gen-width: {runs} runs, {bases} variation-selector bases, Unicode {UNICODE_VERSION}")


if __name__ == "__main__":
    main()
