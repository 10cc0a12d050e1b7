#!/usr/bin/env python3
"""Writes the args of every vendor corpus case and checks the cases against their table.

The vendor corpus is Tests/EndToEndTests/VendorCorpus.tsv and one case folder per row,
Tests/EndToEndTests/cases/notif-parse/vendor-corpus-<format>-<source>-<what>/, holding the
message file (the bytes its source shows, or its transcription, as ORIGIN says) and an ORIGIN
file: source, path, commit, license, bytes, verdict, vendor answers, rule (and an optional
note). The verdict is judged from the vendor's rule, not from what notif-parse prints.

For each row this writes args (--check, a fixed --now, --platform when the row names one, the
message file) and checks that the folder holds what the row says: the message file, an ORIGIN
with every field and the row's verdict, a status that follows from the verdict (accepted and
ignored 0, rejected 1), codes only where the verdict reports some, no two messages with the same
bytes (among them, in another case's inputs or in ../shared/corpus), and no vendor-corpus-*
folder without a row. The expectations (stdout.ndjson, stderr.txt, status) are not written
here: record them with `make golden CASE='notif-parse/vendor-corpus-*'`, then read them against
the verdicts, never the other way round (VendorCorpusTests.swift fails where they disagree).

Usage: scripts/import-vendor-corpus.py [--check-only] [CORPUS_DIR]   (default: ../shared/corpus)
"""
import csv
import os
import sys

NOW = "2026-11-22T09:00:00Z"
FIELDS = ("source", "path", "commit", "license", "bytes", "verdict", "vendor answers", "rule")
VERDICTS = {"accepted": "0", "ignored": "0", "rejected": "1"}
FORMATS = {"apns", "fcm", "fcm-legacy", "webpush", "sns", "expo"}
EXPECTATIONS = {"args", "ORIGIN", "stdout.ndjson", "stderr.txt", "status"}

here = os.path.dirname(os.path.abspath(__file__))
tests = os.path.join(here, "..", "Tests", "EndToEndTests")
cases = os.path.join(tests, "cases", "notif-parse")
arguments = [a for a in sys.argv[1:] if not a.startswith("--")]
check_only = "--check-only" in sys.argv[1:]
corpus = arguments[0] if arguments else os.path.join(here, "..", "..", "shared", "corpus")

problems = []


def problem(text):
    problems.append(text)


def origin_fields(path):
    fields = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            key, sep, value = line.rstrip("\n").partition(": ")
            if not sep:
                problem(f"{path}:{number}: not 'key: value'")
                continue
            if key in fields:
                problem(f"{path}:{number}: '{key}' twice")
            fields[key] = value
    return fields


with open(os.path.join(tests, "VendorCorpus.tsv"), encoding="utf-8") as f:
    lines = [line for line in f if not line.startswith("#")]
rows = list(csv.DictReader(lines, delimiter="\t"))

seen = {}
inputs_of_others = set(EXPECTATIONS) | {"cmd", "env"}
for tool in sorted(os.listdir(os.path.join(tests, "cases"))):
    tool_folder = os.path.join(tests, "cases", tool)
    for name in sorted(os.listdir(tool_folder)):
        if name.startswith("vendor-corpus-"):
            continue
        for folder, _, files in os.walk(os.path.join(tool_folder, name)):
            for file in files:
                path = os.path.join(folder, file)
                if file in inputs_of_others or os.path.islink(path):
                    continue
                with open(path, "rb") as f:
                    seen.setdefault(f.read(), os.path.relpath(path, os.path.join(tests, "cases")))
if os.path.isdir(corpus):
    for folder, _, files in os.walk(corpus):
        for name in files:
            with open(os.path.join(folder, name), "rb") as f:
                seen[f.read()] = os.path.relpath(os.path.join(folder, name), corpus)

names = set()
for row in rows:
    name = row["case"]
    folder = os.path.join(cases, name)
    if name in names:
        problem(f"{name}: two rows")
    names.add(name)
    if not name.startswith(f"vendor-corpus-{row['format']}-"):
        problem(f"{name}: the name does not start with vendor-corpus-{row['format']}-")
    if row["format"] not in FORMATS:
        problem(f"{name}: unknown format '{row['format']}'")
    if VERDICTS.get(row["verdict"]) != row["status"]:
        problem(f"{name}: verdict '{row['verdict']}' with status {row['status']}")
    if row["verdict"] == "accepted" and row["codes"] != "-":
        problem(f"{name}: an accepted message reports no codes")
    if not os.path.isdir(folder):
        problem(f"{name}: no folder {os.path.relpath(folder)}")
        continue
    message = os.path.join(folder, row["message"])
    if not os.path.isfile(message):
        problem(f"{name}: no message file {row['message']}")
        continue
    with open(message, "rb") as f:
        data = f.read()
    if data in seen:
        problem(f"{name}: {row['message']} has the bytes of {seen[data]}")
    seen[data] = f"{name}/{row['message']}"
    extra = set(os.listdir(folder)) - EXPECTATIONS - {row["message"]}
    if extra:
        problem(f"{name}: files the row does not name: {', '.join(sorted(extra))}")
    origin = os.path.join(folder, "ORIGIN")
    if not os.path.isfile(origin):
        problem(f"{name}: no ORIGIN")
        continue
    fields = origin_fields(origin)
    for key in FIELDS:
        if not fields.get(key):
            problem(f"{name}: ORIGIN has no '{key}'")
    if fields.get("verdict") != row["verdict"]:
        problem(f"{name}: ORIGIN says '{fields.get('verdict')}', the table '{row['verdict']}'")
    args = ["--check", "--now", NOW]
    if row["platform"] != "-":
        args += ["--platform", row["platform"]]
    args.append(row["message"])
    text = "".join(a + "\n" for a in args)
    path = os.path.join(folder, "args")
    current = open(path, encoding="utf-8").read() if os.path.exists(path) else None
    if current != text:
        if check_only:
            problem(f"{name}: args differ from the table")
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)

for name in sorted(os.listdir(cases)):
    if name.startswith("vendor-corpus-") and name not in names:
        problem(f"{name}: a folder with no row in VendorCorpus.tsv")

for text in problems:
    print(f"import-vendor-corpus: {text}", file=sys.stderr)
counts = {}
for row in rows:
    counts.setdefault(row["format"], {}).setdefault(row["verdict"], 0)
    counts[row["format"]][row["verdict"]] += 1
for fmt in sorted(counts):
    detail = ", ".join(f"{n} {v}" for v, n in sorted(counts[fmt].items()))
    print(f"{fmt}: {sum(counts[fmt].values())} ({detail})")
print(f"{len(rows)} vendor cases in {os.path.relpath(cases)}")
sys.exit(1 if problems else 0)
