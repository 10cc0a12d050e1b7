#!/usr/bin/env python3
"""Drop the null-valued keys from the full records in golden case inputs.

notif-parse writes every record with all 37 keys (RecordField order), mostly null; pasted into
a case's input that is a line of ~800 characters of which the case needs a few keys. The
record-reading tools (notif-group, notif-summarize, notif-expire, notif-mark) read a missing
key as null, so a case only needs the keys it is about.

    scripts/shrink-golden-inputs.py                      # every case of those four tools
    scripts/shrink-golden-inputs.py Tests/EndToEndTests/cases/notif-group/my-case
    scripts/shrink-golden-inputs.py --keep category Tests/EndToEndTests/cases/notif-expire/x

What is changed, and nothing else:
- only the `*.ndjson` inputs of a case (not its expected `stdout.ndjson`), symbolic links
  followed, each file once;
- only lines that are a full record (exactly the 37 keys, in order), or a group object whose
  `leading` and `items` are full records, and that are compact JSON as Python writes it, so
  that the line reads back byte for byte; a malformed, pretty-printed, hand-written short or
  otherwise unusual line is left as it is;
- in such a record, a key whose value is null is removed, unless it is kept (below); key
  order and every other byte stay.

Not touched: notif-parse cases (their inputs are APNs payloads, not records) and corpus cases
(those with an ORIGIN file keep their bytes).

Kept nulls: notif-mark writes read_at and seen_at in place and appends them when missing, so a
record it marks keeps them; CASE_KEEPS names the cases whose point is an explicit null.
Records already shrunk are no longer full records, so running this again changes nothing.
"""

import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = os.path.join(ROOT, "Tests", "EndToEndTests", "cases")
TOOLS = ["notif-group", "notif-summarize", "notif-expire", "notif-mark"]

# Sources/NotifModel/RecordField.swift, in order.
RECORD_KEYS = (
    "id app thread_id category title subtitle body title_loc_key title_loc_args "
    "subtitle_loc_key subtitle_loc_args loc_key loc_args created_at relevance "
    "interruption_level badge sound sound_critical sound_volume summary_arg summary_arg_count "
    "collapse_id expires_at priority push_type topic content_available mutable_content "
    "target_content_id event timestamp stale_at dismiss_at read_at seen_at payload"
).split()

# Nulls a tool needs to find where they are.
TOOL_KEEPS = {"notif-mark": {"read_at", "seen_at"}}

# Cases whose point is that a key is null: the null stays in sight.
CASE_KEEPS = {
    "notif-expire/category-without-rule-is-kept-and-warned-once": {"category"},
    "notif-expire/collapse-keeps-the-newest-per-app-and-collapse-id": {"collapse_id"},
    "notif-expire/own-dates-win-where-earlier": {"expires_at", "stale_at", "dismiss_at"},
    "notif-expire/read-ttl-counts-from-read-at": {"read_at"},
    "notif-summarize/no-format-gives-default": {"category"},
}

EXPECTATIONS = {"stdout.ndjson"}


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def is_full_record(value):
    return isinstance(value, dict) and list(value) == RECORD_KEYS


def records_of(obj):
    """The record positions of one input line: the line itself, or a group object's records."""
    if is_full_record(obj):
        return [obj]
    if isinstance(obj, dict) and "leading" in obj:
        records = [obj["leading"]] + list(obj.get("items") or [])
        if all(is_full_record(record) for record in records):
            return records
    return []


def drop_nulls(record, keep):
    return {k: v for k, v in record.items() if v is not None or k in keep}


def shrink_line(line, keep):
    """The line without its records' null keys, or the line itself when it is not ours."""
    try:
        obj = json.loads(line)
    except ValueError:
        return line
    if compact(obj) != line:
        return line
    if is_full_record(obj):
        return compact(drop_nulls(obj, keep))
    if records_of(obj):
        obj = dict(obj)
        obj["leading"] = drop_nulls(obj["leading"], keep)
        if obj.get("items"):
            obj["items"] = [drop_nulls(record, keep) for record in obj["items"]]
        return compact(obj)
    return line


def shrink_file(path, keep):
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    shrunk = [shrink_line(line, keep) for line in lines]
    if shrunk == lines:
        return False
    with open(path, "wb") as f:
        f.write(b"\n".join(shrunk))
    return True


def case_folders(paths):
    if not paths:
        for tool in TOOLS:
            folder = os.path.join(CASES, tool)
            for name in sorted(os.listdir(folder)):
                yield os.path.join(folder, name)
    else:
        yield from paths


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keep", action="append", default=[], help="a key whose null stays")
    parser.add_argument("cases", nargs="*", help="case folders (default: every case)")
    args = parser.parse_args()
    keeps = {}  # input file -> the keys kept by any case that reads it
    protected = set()  # input files of cases this script does not touch (parse, corpus)
    for tool in os.listdir(CASES):
        for name in os.listdir(os.path.join(CASES, tool)):
            folder = os.path.join(CASES, tool, name)
            if tool in TOOLS and not os.path.exists(os.path.join(folder, "ORIGIN")):
                continue
            for dirpath, _, files in os.walk(folder):
                protected.update(os.path.realpath(os.path.join(dirpath, n)) for n in files)
    for folder in case_folders(args.cases):
        folder = os.path.abspath(folder)
        tool = os.path.basename(os.path.dirname(folder))
        case = tool + "/" + os.path.basename(folder)
        if tool not in TOOLS or os.path.exists(os.path.join(folder, "ORIGIN")):
            print(f"skipped {case}: not a record-reading tool's case, or a corpus case")
            continue
        keep = set(args.keep) | TOOL_KEEPS.get(tool, set()) | CASE_KEEPS.get(case, set())
        for dirpath, _, files in os.walk(folder):
            for name in sorted(files):
                if not name.endswith(".ndjson") or name in EXPECTATIONS and dirpath == folder:
                    continue
                path = os.path.realpath(os.path.join(dirpath, name))
                keeps.setdefault(path, set()).update(keep)
    changed = 0
    for path, keep in keeps.items():
        if path in protected:
            print(f"left {os.path.relpath(path, ROOT)}: a skipped case reads it too")
        elif shrink_file(path, keep):
            changed += 1
            print(f"shrunk {os.path.relpath(path, ROOT)}")
    print(f"{changed} files shrunk", file=sys.stderr)


if __name__ == "__main__":
    main()
