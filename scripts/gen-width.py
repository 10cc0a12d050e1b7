#!/usr/bin/env python3
"""Generate the tables notif takes from the Unicode Character Database: NotifText's terminal
display widths, and the characters NotifModel's `Diagnostic.visible` writes visibly.

usage: scripts/gen-width.py [UCD-FOLDER]       (default: $UNICODE_DATA, else /usr/share/unicode)
       scripts/gen-width.py --check [UCD-FOLDER]

Reads the UCD's own files, as Debian's unicode-data package installs them under
/usr/share/unicode (`apt-get install unicode-data`): EastAsianWidth.txt,
extracted/DerivedGeneralCategory.txt, PropList.txt, DerivedCoreProperties.txt, Blocks.txt,
auxiliary/GraphemeBreakProperty.txt, emoji/emoji-data.txt, emoji/emoji-variation-sequences.txt
and emoji/emoji-sequences.txt. The Unicode version is read from the files' headers, and every
file must have the same one. Writes Sources/NotifText/DisplayWidth+Generated.swift and
Sources/NotifModel/Diagnostic+Generated.swift; with --check, writes nothing and exits 1 when
either file is not what the data gives (`make width-check`, part of `make check`, runs it).

The widths, per code point:
  2  East_Asian_Width Wide (W) or Fullwidth (F), with the defaults the file's @missing lines
     give to code points it does not list (the CJK blocks, planes 2 and 3). Since Unicode 9,
     UAX #11 makes every Emoji_Presentation character W, so the emoji are here; the regional
     indicators (Emoji_Presentation, EAW N) are added, as terminals and wcwidth draw a flag's
     two halves each two columns wide. An unassigned code point in a block whose assigned
     code points are all Emoji_Presentation (Symbols and Pictographs Extended-A, where every
     emoji since Unicode 12 went) is 2 as well: the emoji later versions put there are measured
     right by these tables. The generator stops if an Emoji_Presentation character is not 2.
  0  the nonspacing and enclosing marks (Mn, Me), the format characters (Cf: ZERO WIDTH
     JOINER, the bidirectional controls, ...) but the soft hyphen and the prepended
     concatenation marks (U+0600 and the others PropList.txt lists), which show; the Hangul
     medial vowels and final consonants (U+1160-U+11FF, U+D7B0-U+D7FF: they join the syllable
     before them); U+2028 and U+2029; the variation selectors (Mn); the unassigned code points
     that DerivedCoreProperties.txt makes Default_Ignorable (kept for invisible formats, as
     the tag characters); and the C0 and C1 controls, which show nothing by themselves (tools
     that show untrusted text write them visibly).
  1  everything else, the spacing combining marks (Mc) included, as in glibc's wcwidth(3).
The East Asian Ambiguous (A) code points, `…` among them, are 1 here, as terminals count them
outside CJK locales; the table lists them (`ambiguousRuns`) so a tool can say which of its
own marks are.

A text is as wide as the sum of its grapheme clusters; a cluster as its widest code point, and
2 when U+FE0F follows a base of emoji-variation-sequences.txt (`❤️`): so a flag, a ZWJ
sequence or a skin tone is one emoji, two columns (DisplayWidth.swift).

scripts/gen-width-samples.py checks these tables against an independent implementation
(Python's wcwidth) and records its answers as test data; CI does not need either library.

The characters written visibly (`Diagnostic.visible`: in every diagnostic, usage errors
included, and in what notif-show shows), per code point:
  always     the C0 controls, DEL and the C1 controls (Cc: they start escape sequences);
             every Bidi_Control character of PropList.txt (U+061C, LRM, RLM, the embeddings,
             overrides and isolates: they reorder the text around them); U+2028 and U+2029
             (they break a line); and every Default_Ignorable_Code_Point of
             DerivedCoreProperties.txt whose Grapheme_Cluster_Break is not Extend or ZWJ: such a
             character is a grapheme cluster of its own (Control: U+00AD, U+180E, U+200B,
             U+2060-U+206F, U+FEFF, the shorthand and musical format controls, the unassigned
             ones; L, V, Other: the Hangul fillers U+115F, U+1160, U+3164, U+FFA0) and draws
             nothing, so it can only hide what the text holds.
  unattached the other Default_Ignorable_Code_Point characters (Grapheme_Cluster_Break Extend
             or ZWJ, outside the Tags block): U+034F, U+17B4-U+17B5, the Mongolian and other
             variation selectors, ZWNJ U+200C and ZWJ U+200D. They belong to the character
             before them (an emoji sequence, a Persian or Indic word): kept after a character
             that is shown as it is, written visibly at the start of the text, after a space
             or after a character written visibly, where they would join nothing.
  tag        the tag characters (Default_Ignorable, Extend, in the Tags block U+E0000-U+E007F):
             kept only in an emoji tag sequence, a tag base of emoji-sequences.txt
             (RGI_Emoji_Tag_Sequence: U+1F3F4) then 3 to 7 tag letters or digits (a CLDR
             subdivision, `gbsct`) and CANCEL TAG U+E007F, which is the flag of Scotland;
             written visibly anywhere else, where they would carry text no one sees.
Everything else is shown as it is: letters, marks, emoji modifiers, the regional indicators.
The generator stops if the data breaks a rule the Swift code relies on (a Bidi_Control that
is not a Control, a tag sequence of another shape).
"""

import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
TABLE_OUT = os.path.join(ROOT, "Sources", "NotifText", "DisplayWidth+Generated.swift")
ESCAPE_OUT = os.path.join(ROOT, "Sources", "NotifModel", "Diagnostic+Generated.swift")
MAX = 0x110000

FILES = {  # read in this order; every file but the emoji ones names the Unicode version
    "eaw": "EastAsianWidth.txt",
    "gc": os.path.join("extracted", "DerivedGeneralCategory.txt"),
    "props": "PropList.txt",
    "core": "DerivedCoreProperties.txt",
    "blocks": "Blocks.txt",
    "graphemes": os.path.join("auxiliary", "GraphemeBreakProperty.txt"),
    "emoji": os.path.join("emoji", "emoji-data.txt"),
    "variations": os.path.join("emoji", "emoji-variation-sequences.txt"),
    "sequences": os.path.join("emoji", "emoji-sequences.txt"),
}
EMOJI_FILES = ("emoji", "variations", "sequences")

RANGE = re.compile(r"^([0-9A-F]{4,6})(?:\.\.([0-9A-F]{4,6}))?\s*;\s*([^#]+?)\s*(?:#.*)?$")
MISSING = re.compile(r"^#\s*@missing:\s*([0-9A-F]{4,6})\.\.([0-9A-F]{4,6})\s*;\s*(\S+)")


def read_lines(folder, key):
    path = os.path.join(folder, FILES[key])
    try:
        with open(path, encoding="utf-8") as handle:
            return path, handle.read().splitlines()
    except OSError as error:
        sys.exit(f"gen-width: {path}: {error.strerror} (apt-get install unicode-data)")


def version_of(path, lines):
    """The Unicode version a UCD file names in its first lines."""
    for line in lines[:12]:
        found = re.search(r"(?:-|Version )(\d+\.\d+\.\d+)", line)
        if found:
            return found.group(1)
    sys.exit(f"gen-width: {path}: no Unicode version in its header")


def emoji_version(lines):
    """emoji-data.txt names its version as 'Version: 15.0' or in the file name."""
    for line in lines[:12]:
        found = re.search(r"(\d+\.\d+)(?:\.\d+)?", line)
        if found and ("Version" in line or "emoji-data-" in line):
            return found.group(1)
    return None


def ranges(lines):
    """(first, last, value) of each data line."""
    for line in lines:
        found = RANGE.match(line)
        if found:
            first = int(found.group(1), 16)
            last = int(found.group(2) or found.group(1), 16)
            yield first, last, found.group(3)


def load(folder):
    data = {}
    versions = {}
    for key in FILES:
        path, lines = read_lines(folder, key)
        data[key] = lines
        if key not in EMOJI_FILES:
            versions[path] = version_of(path, lines)
    if len(set(versions.values())) != 1:
        sys.exit(f"gen-width: the files are of different Unicode versions: {versions}")
    version = next(iter(versions.values()))
    for key in ("emoji", "sequences"):
        declared = emoji_version(data[key])
        if declared and not version.startswith(declared):
            sys.exit(f"gen-width: {FILES[key]} is emoji {declared}, the UCD is {version}")
    return data, version


def tables(data):
    """The width of every code point, and the set of East Asian Ambiguous ones."""
    eaw = [None] * MAX
    for line in data["eaw"]:
        found = MISSING.match(line)
        if found:
            for cp in range(int(found.group(1), 16), int(found.group(2), 16) + 1):
                eaw[cp] = found.group(3)
    # The @missing lines of EastAsianWidth.txt give only the general default (N); the file's
    # comment names the blocks whose unassigned code points default to W.
    defaults_w = [(0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x2FFFD),
                  (0x30000, 0x3FFFD)]
    for first, last in defaults_w:
        for cp in range(first, last + 1):
            eaw[cp] = "W"
    for first, last, value in ranges(data["eaw"]):
        for cp in range(first, last + 1):
            eaw[cp] = value

    category = ["Cn"] * MAX
    for first, last, value in ranges(data["gc"]):
        for cp in range(first, last + 1):
            category[cp] = value

    prepended = set()
    for first, last, value in ranges(data["props"]):
        if value == "Prepended_Concatenation_Mark":
            prepended.update(range(first, last + 1))

    ignorable = set()
    for first, last, value in ranges(data["core"]):
        if value == "Default_Ignorable_Code_Point":
            ignorable.update(range(first, last + 1))

    presentation = set()
    for first, last, value in ranges(data["emoji"]):
        if value == "Emoji_Presentation":
            presentation.update(range(first, last + 1))

    # Blocks whose assigned code points are all Emoji_Presentation: their unassigned ones are
    # where the next emoji go.
    emoji_blocks = []
    for first, last, name in ranges(data["blocks"]):
        assigned = [cp for cp in range(first, last + 1) if category[cp] != "Cn"]
        if assigned and all(cp in presentation for cp in assigned):
            emoji_blocks.append((first, last, name))

    width = [1] * MAX
    for cp in range(MAX):
        if cp < 0x20 or 0x7F <= cp < 0xA0:
            width[cp] = 0
        elif category[cp] in ("Mn", "Me") or (category[cp] == "Cf" and cp != 0xAD
                                              and cp not in prepended):
            width[cp] = 0
        elif category[cp] == "Cn" and cp in ignorable:
            width[cp] = 0  # reserved for invisible formats, as the tag characters are
        elif 0x1160 <= cp <= 0x11FF or 0xD7B0 <= cp <= 0xD7FF or cp in (0x2028, 0x2029):
            width[cp] = 0
        elif eaw[cp] in ("W", "F"):
            width[cp] = 2
    for cp in range(0x1F1E6, 0x1F1FF + 1):
        width[cp] = 2  # the regional indicators
    for first, last, _ in emoji_blocks:
        for cp in range(first, last + 1):
            if category[cp] == "Cn":
                width[cp] = 2
    for cp in presentation:
        if width[cp] != 2:
            sys.exit(f"gen-width: U+{cp:04X} is Emoji_Presentation but {width[cp]} columns wide")

    ambiguous = {cp for cp in range(MAX) if eaw[cp] == "A" and width[cp] == 1}
    bases = set()
    for line in data["variations"]:
        found = re.match(r"^([0-9A-F]{4,6}) FE0F\s*;", line)
        if found:
            bases.add(int(found.group(1), 16))
    return width, ambiguous, bases, emoji_blocks


def escapes(data):
    """What `Diagnostic.visible` does with each code point it may write visibly: a dict of
    code point to "always", "unattached" or "tag", and the tag bases (see the docstring)."""
    def having(key, value):
        found = set()
        for first, last, name in ranges(data[key]):
            if name == value:
                found.update(range(first, last + 1))
        return found

    control = set(range(0x20)) | set(range(0x7F, 0xA0))
    bidi = having("props", "Bidi_Control")
    ignorable = having("core", "Default_Ignorable_Code_Point")
    attaching = having("graphemes", "Extend") | having("graphemes", "ZWJ")
    tags_block = set()
    for first, last, name in ranges(data["blocks"]):
        if name == "Tags":
            tags_block.update(range(first, last + 1))
    if not tags_block:
        sys.exit("gen-width: Blocks.txt has no Tags block")

    kind = {}
    for cp in control | bidi | {0x2028, 0x2029} | (ignorable - attaching):
        kind[cp] = "always"
    for cp in ignorable & attaching:
        if cp in kind:
            sys.exit(f"gen-width: U+{cp:04X} is both a control and an extending character")
        kind[cp] = "tag" if cp in tags_block else "unattached"

    for cp, expected in [(0x200C, "unattached"), (0x200D, "unattached"), (0xFE0F, "unattached"),
                         (0xE0067, "tag"), (0xE007F, "tag"), (0x200B, "always")]:
        if kind.get(cp) != expected:
            sys.exit(f"gen-width: U+{cp:04X} is {kind.get(cp)}, the rules expect {expected}")

    bases = set()
    for line in data["sequences"]:
        found = re.match(r"^([0-9A-F ]+?)\s*;\s*RGI_Emoji_Tag_Sequence\s*;", line)
        if not found:
            continue
        points = [int(part, 16) for part in found.group(1).split()]
        base, spec, end = points[0], points[1:-1], points[-1]
        letters_digits = set(range(0xE0030, 0xE003A)) | set(range(0xE0061, 0xE007B))
        if (kind.get(base) is not None or end != 0xE007F or not 3 <= len(spec) <= 7
                or not all(cp in letters_digits and kind.get(cp) == "tag" for cp in spec)):
            sys.exit(f"gen-width: the tag sequence {found.group(1)} is not of the shape "
                     "Diagnostic.visible keeps")
        bases.add(base)
    if not bases:
        sys.exit("gen-width: emoji-sequences.txt has no RGI_Emoji_Tag_Sequence")
    return kind, bases


def escape_runs(kind):
    runs = []
    for cp in sorted(kind):
        if runs and runs[-1][1] == cp - 1 and runs[-1][2] == kind[cp]:
            runs[-1][1] = cp
        else:
            runs.append([cp, cp, kind[cp]])
    return runs


def render_escapes(version, kind, bases):
    lines = [
        f"// Generated by scripts/gen-width.py from the Unicode Character Database {version}: do not",
        "// edit. The rules are in the script's docstring and at `Diagnostic.visible`.",
        "",
        "extension Diagnostic {",
        "  /// How `visible` treats a character of `escapeRuns`.",
        "  enum Escape: Sendable {",
        "    /// Written visibly wherever it is.",
        "    case always",
        "    /// Kept after a character shown as it is (not a space), written visibly elsewhere.",
        "    case unattached",
        "    /// Kept in an emoji tag sequence, written visibly elsewhere.",
        "    case tag",
        "  }",
        "",
        "  /// The code points `visible` may write visibly, as sorted runs that do not overlap:",
        "  /// `(first, last, escape)`. C0 and DEL are here too, though `visible` decides ASCII",
        "  /// without the table.",
        "  static let escapeRuns: [(first: UInt32, last: UInt32, escape: Escape)] = [",
    ]
    for first, last, name in escape_runs(kind):
        lines.append(f"    (0x{first:05X}, 0x{last:05X}, .{name}),")
    lines += [
        "  ]",
        "",
        "  /// The characters an emoji tag sequence starts with (RGI_Emoji_Tag_Sequence).",
        "  static let tagBases: [UInt32] = [" + ", ".join(f"0x{cp:05X}" for cp in sorted(bases))
        + "]",
        "}",
    ]
    return "\n".join(lines) + "\n"


def runs_of(points):
    runs = []
    for cp in sorted(points):
        if runs and runs[-1][1] == cp - 1:
            runs[-1][1] = cp
        else:
            runs.append([cp, cp])
    return runs


def width_runs(width):
    runs = []
    for cp in range(MAX):
        w = width[cp]
        if w == 1:
            continue
        if runs and runs[-1][1] == cp - 1 and runs[-1][2] == w:
            runs[-1][1] = cp
        else:
            runs.append([cp, cp, w])
    return runs


def render(version, width, ambiguous, bases, emoji_blocks):
    blocks = ", ".join(f"{name} (U+{first:04X}-U+{last:04X})" for first, last, name in emoji_blocks)
    lines = [
        f"// Generated by scripts/gen-width.py from the Unicode Character Database {version}: do not",
        "// edit. The rules are in the script's docstring and in DisplayWidth.swift.",
        "",
        "extension DisplayWidth {",
        f"  /// The Unicode version of the tables: {version}.",
        f'  public static let unicodeVersion = "{version}"',
        "",
        "  /// The code points whose width is not 1, as sorted runs that do not overlap:",
        "  /// `(first, last, width)`. Unassigned code points of the blocks whose code points are",
        f"  /// all emoji are 2: {blocks}.",
        "  static let runs: [(first: UInt32, last: UInt32, width: UInt8)] = [",
    ]
    for first, last, w in width_runs(width):
        lines.append(f"    (0x{first:05X}, 0x{last:05X}, {w}),")
    lines += [
        "  ]",
        "",
        "  /// The code points that U+FE0F makes two columns wide (emoji-variation-sequences.txt),",
        "  /// as sorted runs: `(first, last)`.",
        "  static let emojiVariationBases: [(first: UInt32, last: UInt32)] = [",
    ]
    for first, last in runs_of(bases):
        lines.append(f"    (0x{first:05X}, 0x{last:05X}),")
    lines += [
        "  ]",
        "",
        "  /// The East Asian Ambiguous code points of width 1 (EastAsianWidth.txt `A`), which",
        "  /// terminals set for CJK locales draw two columns wide: as sorted runs `(first, last)`.",
        "  static let ambiguousRuns: [(first: UInt32, last: UInt32)] = [",
    ]
    for first, last in runs_of(ambiguous):
        lines.append(f"    (0x{first:05X}, 0x{last:05X}),")
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


def main():
    arguments = sys.argv[1:]
    check = "--check" in arguments
    arguments = [a for a in arguments if a != "--check"]
    if len(arguments) > 1 or any(a.startswith("-") for a in arguments):
        sys.exit("usage: scripts/gen-width.py [--check] [UCD-FOLDER]")
    folder = arguments[0] if arguments else os.environ.get("UNICODE_DATA", "/usr/share/unicode")
    data, version = load(folder)
    width, ambiguous, bases, emoji_blocks = tables(data)
    kind, tag_bases = escapes(data)
    outputs = [
        (TABLE_OUT, render(version, width, ambiguous, bases, emoji_blocks)),
        (ESCAPE_OUT, render_escapes(version, kind, tag_bases)),
    ]
    if check:
        for path, text in outputs:
            try:
                with open(path, encoding="utf-8") as handle:
                    committed = handle.read()
            except OSError:
                committed = ""
            if committed != text:
                sys.exit(f"gen-width: {os.path.relpath(path, ROOT)} is not what {folder} "
                         f"(Unicode {version}) gives: run scripts/gen-width.py")
        print(f"gen-width: both tables are Unicode {version}'s, as {folder} gives it")
        return
    for path, text in outputs:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    print(f"gen-width: {len(width_runs(width))} runs, {len(runs_of(bases))} variation-selector "
          f"bases, {len(runs_of(ambiguous))} ambiguous runs; {len(escape_runs(kind))} runs "
          f"written visibly; Unicode {version}")


if __name__ == "__main__":
    main()
