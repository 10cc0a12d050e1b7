#!/usr/bin/env python3
"""Check NotifText's width tables against Python's wcwidth, and record wcwidth's answers as the
test data of NotifTextTests.

usage: scripts/gen-width-samples.py [UCD-FOLDER]   (default: $UNICODE_DATA, else /usr/share/unicode)

wcwidth (https://pypi.org/project/wcwidth/) is an implementation of terminal widths written
apart from ours, from Unicode 17.0.0 data; it runs here only, never when the tests run: its
answers are committed in Tests/NotifTextTests/WidthSamples.swift, which this script writes.

1. Every code point: the width Sources/NotifText/DisplayWidth+Generated.swift gives (as
   scripts/gen-width.py wrote it from the UCD) must be wcwidth.wcwidth's, except where a rule
   of ours or the Unicode version says otherwise, each difference counted by its reason:
     - a C0 or C1 control: wcwidth says -1 ("not printable"), we say 0;
     - a spacing mark (Mc): wcwidth says 0 and makes up for it in wcswidth, we say 1 (2 when
       East Asian Wide), as glibc's wcwidth(3) does;
     - a code point unassigned in our UCD (General_Category Cn in the folder given), which
       Unicode 16.0 or 17.0 assigned;
     - the properties Unicode 16.0 changed (listed in CHANGED_SINCE_15);
     - the Hangul fillers U+3164 and U+FFA0: letters of East Asian Wide and Halfwidth in the
       UCD; wcwidth counts them 0 as default-ignorable.
   Any other difference stops the script.
2. Samples by kind (CJK, emoji, combining and joining marks, right-to-left scripts): code
   points and texts with wcwidth's widths (wcswidth measures a text by grapheme cluster).
3. Texts for line layout: each split into grapheme clusters by wcwidth.iter_graphemes, with
   each cluster's width; the tests wrap and cut these texts with TextLayout and check, with
   these clusters and widths, that every line is whole clusters and fits its width.

To regenerate:

    apt-get install unicode-data && pip install wcwidth==0.7.0
    scripts/gen-width.py && scripts/gen-width-samples.py
"""

import os
import re
import sys

import wcwidth

WCWIDTH_VERSION = "0.7.0"
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
TABLE = os.path.join(ROOT, "Sources", "NotifText", "DisplayWidth+Generated.swift")
SAMPLES_OUT = os.path.join(ROOT, "Tests", "NotifTextTests", "WidthSamples.swift")

# East_Asian_Width W since Unicode 16.0 (the trigrams, monograms, digrams, hexagrams and
# counting rods); Mn to Mc in 16.0 (AHOM CONSONANT SIGN MEDIAL RA).
CHANGED_SINCE_15 = [(0x2630, 0x2637), (0x268A, 0x268F), (0x4DC0, 0x4DFF), (0x1D300, 0x1D356),
                    (0x1D360, 0x1D376), (0x1171E, 0x1171E)]
HANGUL_FILLERS = {0x3164, 0xFFA0}

SCALAR_SAMPLES = {
    "ASCII and Latin": [0x20, 0x41, 0x7A, 0x7E, 0xA0, 0xAD, 0xE9, 0x17F, 0x2010, 0x2026],
    "CJK": [0x1100, 0x115F, 0x2E80, 0x3000, 0x3041, 0x30A2, 0x3400, 0x4E00, 0x6F22, 0x9FFF,
            0xA960, 0xAC00, 0xD7A3, 0xF900, 0xFE30, 0xFF01, 0xFF21, 0xFF61, 0xFFE0, 0x20000,
            0x2A6DF, 0x30000, 0x3FFFD],
    "emoji": [0x231A, 0x23F0, 0x2614, 0x26A1, 0x2705, 0x2764, 0x1F004, 0x1F1E6, 0x1F1FF,
              0x1F300, 0x1F600, 0x1F64F, 0x1F680, 0x1F6B2, 0x1F90C, 0x1F9FF, 0x1FA70, 0x1FA77,
              0x1FA80, 0x1FAE0, 0x1FAF8, 0x1F3FB, 0x1F3FF, 0x263A, 0x2B50,
              # assigned in Unicode 16.0, after our data: measured by the emoji-block rule
              0x1FA89, 0x1FAE9],
    "combining and joining": [0x300, 0x301, 0x36F, 0x483, 0x488, 0x20DD, 0x20E3, 0x1AB0,
                              0x1DC0, 0x200B, 0x200C, 0x200D, 0x2060, 0xFE00, 0xFE0E, 0xFE0F,
                              0xFEFF, 0x1160, 0x11A8, 0xD7B0, 0xE0001, 0xE0020, 0xE0100,
                              0x2028, 0x2029],
    "right to left": [0x5D0, 0x5E9, 0x5B0, 0x5B8, 0x5C1, 0x627, 0x645, 0x64B, 0x64E, 0x652,
                      0x670, 0x600, 0x6DD, 0x61C, 0x200E, 0x200F, 0x202B, 0x202E, 0x2067,
                      0x700, 0x711, 0x7C0, 0xFB1D, 0xFE70, 0x10800],
}

STRING_SAMPLES = [
    "notif", "漢字", "かなカナ", "한국어", "Ｆｕｌｌ", "ｶﾀｶﾅ", "🚀", "🪀", "😀🚀🪀🫠",
    "👨\u200d👩\u200d👧", "🇫🇷🇯🇵", "👍🏽", "🧑🏻\u200d💻", "❤️", "❤", "#️⃣", "🏳️\u200d🌈",
    "☺️ok", "e\u0301", "é", "a\u0308\u0301", "\u1100\u1161\u11a8", "a\u200bb",
    "שָׁלוֹם", "مَرْحَبًا", "ܫܠܡܐ", "\u200fשלום\u200f", "Hello, 世界! 🌏",
    "Ça va? Très bien.", "ภาษาไทย", "Wait…",
]

# Texts long enough to wrap and be cut at the widths the tests try: CJK, emoji sequences
# (flags, skin tones, ZWJ families, keycaps), combining marks, right-to-left scripts, mixed.
LAYOUT_SAMPLES = [
    "会議は午後三時からです。資料を事前に確認して、質問があれば返信してください。よろしくお願いします。",
    "新しいメッセージ: 🍣🍜🍱 今夜の夕食はどうする？ 駅前の店を予約しました 🎉",
    "오늘 회의는 오후 세 시에 시작합니다. 자료를 미리 확인해 주세요.",
    "Family trip 👨\u200d👩\u200d👧\u200d👦👨\u200d👩\u200d👧 to 🇫🇷🇯🇵🇧🇷🇨🇦 with 👍🏽👍🏿🧑🏻\u200d💻🏳️\u200d🌈 and #️⃣ ❤️ ☺️ friends",
    "🇫🇷🇯🇵🇧🇷🇨🇦🇩🇪🇮🇹🇪🇸🇬🇧🇺🇸🇲🇽🇰🇷🇨🇳",
    "Ze\u0301phyr cafe\u0301 na\u0308i\u0308ve a\u0308\u0301\u0302 Zalgo t\u0334\u0335e\u0336\u0337x\u0338t\u0334 "
    "re\u0301sume\u0301 co\u0302te\u0301 pie\u0300ce",
    "שָׁלוֹם עֲלֵיכֶם, מָה שְׁלוֹמְךָ הַיּוֹם? נִפָּגֵשׁ מָחָר בַּבֹּקֶר",
    "مَرْحَبًا بِكُمْ فِي الِاجْتِمَاعِ الْأُسْبُوعِيِّ، سَنَبْدَأُ بَعْدَ قَلِيلٍ",
    "Mixed: Alice said 你好 and Bob replied שלום, then 😀 and naïve café, 東京 ✈️ Paris",
    "Supercalifragilisticexpialidocious-antidisestablishmentarianism-pneumonoultramicroscopic",
    "ＦＵＬＬＷＩＤＴＨ　ｔｅｘｔ　ａｎｄ　ｈａｌｆｗｉｄｔｈ　ｶﾀｶﾅ　ﾃｷｽﾄ",
]


def ranges_in(text, name, with_width):
    body = text.split(f"static let {name}")[1].split("\n  ]\n")[0]
    if with_width:
        return [(int(a, 16), int(b, 16), int(w)) for a, b, w in
                re.findall(r"\(0x([0-9A-F]+), 0x([0-9A-F]+), (\d)\)", body)]
    return [(int(a, 16), int(b, 16)) for a, b in
            re.findall(r"\(0x([0-9A-F]+), 0x([0-9A-F]+)\)", body)]


def read_table():
    with open(TABLE, encoding="utf-8") as handle:
        text = handle.read()
    version = re.search(r'unicodeVersion = "([\d.]+)"', text).group(1)
    width = [1] * 0x110000
    for first, last, w in ranges_in(text, "runs", True):
        for cp in range(first, last + 1):
            width[cp] = w
    bases = set()
    for first, last in ranges_in(text, "emojiVariationBases", False):
        bases.update(range(first, last + 1))
    return version, width, bases


def unassigned(folder):
    path = os.path.join(folder, "extracted", "DerivedGeneralCategory.txt")
    assigned = set()
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            found = re.match(r"^([0-9A-F]+)(?:\.\.([0-9A-F]+))?\s*;\s*(\w+)", line)
            if found and found.group(3) != "Cn":
                assigned.update(range(int(found.group(1), 16),
                                      int(found.group(2) or found.group(1), 16) + 1))
    return assigned


def reason(cp, ours, theirs, mc, assigned, changed):
    if theirs == -1 and ours == 0:
        return "control"
    if cp in mc and theirs == 0 and ours in (1, 2):
        return "spacing mark"
    if cp not in assigned:
        return "assigned after our Unicode version"
    if cp in changed:
        return "properties changed in Unicode 16.0"
    if cp in HANGUL_FILLERS:
        return "Hangul filler"
    return None


def swift_string(text):
    out = []
    for c in text:
        if 0x20 <= ord(c) < 0x7F and c not in '"\\':
            out.append(c)
        else:
            out.append("\\u{%X}" % ord(c))
    return '"' + "".join(out) + '"'


def main():
    if wcwidth.__version__ != WCWIDTH_VERSION:
        sys.exit(f"gen-width-samples: wcwidth {WCWIDTH_VERSION} is required, not {wcwidth.__version__}")
    folder = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("UNICODE_DATA",
                                                                   "/usr/share/unicode")
    from wcwidth.table_mc import CATEGORY_MC
    mc = set()
    for first, last in CATEGORY_MC["17.0.0"]:
        mc.update(range(first, last + 1))
    version, width, bases = read_table()
    assigned = unassigned(folder)
    changed = set()
    for first, last in CHANGED_SINCE_15:
        changed.update(range(first, last + 1))

    counts = {}
    for cp in range(0x110000):
        ours, theirs = width[cp], wcwidth.wcwidth(chr(cp))
        if ours == theirs:
            continue
        why = reason(cp, ours, theirs, mc, assigned, changed)
        if why is None:
            sys.exit(f"gen-width-samples: U+{cp:04X} is {ours} in our table, {theirs} in wcwidth")
        counts[why] = counts.get(why, 0) + 1

    def cluster_width(cluster):
        widest = max(width[ord(c)] for c in cluster)
        if widest < 2 and "\ufe0f" in cluster[1:] and ord(cluster[0]) in bases:
            return 2
        return widest

    lines = [
        f"// Generated by scripts/gen-width-samples.py with wcwidth {WCWIDTH_VERSION}: do not edit.",
        f"// wcwidth's own answers, which NotifText (Unicode {version}) must give.",
        "",
        "/// Code points, by kind, with their width in wcwidth.wcwidth: -1 (a control) is 0",
        "/// here, and a spacing mark (Mc) 1; the samples hold neither.",
        "enum WidthSamples {",
        "  static let scalars: [(kind: String, scalar: UInt32, width: Int)] = [",
    ]
    for kind, points in SCALAR_SAMPLES.items():
        for cp in points:
            theirs = wcwidth.wcwidth(chr(cp))
            if theirs != width[cp]:
                sys.exit(f"gen-width-samples: sample U+{cp:04X} is {width[cp]} here, {theirs} in wcwidth")
            lines.append(f'    ("{kind}", 0x{cp:05X}, {theirs}),')
    lines += ["  ]", "",
              "  /// Texts with their width in wcwidth.wcswidth, which measures grapheme clusters.",
              "  static let strings: [(text: String, width: Int)] = ["]
    for text in STRING_SAMPLES:
        theirs = wcwidth.wcswidth(text)
        ours = sum(cluster_width(g) for g in wcwidth.iter_graphemes(text))
        if theirs != ours:
            sys.exit(f"gen-width-samples: sample {text!r} is {ours} here, {theirs} in wcwidth")
        lines.append(f"    ({swift_string(text)}, {theirs}),")
    lines += ["  ]", "",
              "  /// Texts split into grapheme clusters by wcwidth.iter_graphemes, each with its",
              "  /// width in wcwidth.wcswidth: what TextLayout's lines must be made of.",
              "  static let layouts: [(text: String, clusters: [(String, Int)])] = ["]
    for text in LAYOUT_SAMPLES:
        clusters = list(wcwidth.iter_graphemes(text))
        for cluster in clusters:
            if wcwidth.wcswidth(cluster) != cluster_width(cluster):
                sys.exit(f"gen-width-samples: cluster {cluster!r} is {cluster_width(cluster)} "
                         f"here, {wcwidth.wcswidth(cluster)} in wcwidth")
        lines.append(f"    (")
        lines.append(f"      {swift_string(text)},")
        lines.append("      [")
        for cluster in clusters:
            lines.append(f"        ({swift_string(cluster)}, {wcwidth.wcswidth(cluster)}),")
        lines.append("      ]")
        lines.append("    ),")
    lines += ["  ]", "}"]
    with open(SAMPLES_OUT, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    summary = ", ".join(f"{count} {why}" for why, count in sorted(counts.items()))
    print(f"gen-width-samples: the table (Unicode {version}) is wcwidth {WCWIDTH_VERSION}'s "
          f"but for: {summary}")


if __name__ == "__main__":
    main()
