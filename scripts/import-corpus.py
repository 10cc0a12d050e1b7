#!/usr/bin/env python3
"""Copies every payload of ../shared/corpus into a golden case of its own.

Each case folder, Tests/EndToEndTests/cases/notif-parse/corpus-<name>/, gets the payload under
its own file name, byte for byte, an ORIGIN file citing where it came from (SOURCES.tsv), and
args that parse it with a fixed --now. The expectations (stdout.ndjson, stderr.txt, status) are
not written here: run `NOTIF_UPDATE_GOLDEN=1 swift test --filter GoldenTests`, then read every
one of them against ORIGIN before committing (CorpusTests.swift states what each must show).

Usage: scripts/import-corpus.py [CORPUS_DIR]   (default: ../shared/corpus)
"""
import csv
import os
import re
import shutil
import sys

corpus = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpus")
cases = os.path.join(os.path.dirname(__file__), "..", "Tests", "EndToEndTests", "cases", "notif-parse")

with open(os.path.join(corpus, "SOURCES.tsv"), newline="", encoding="utf-8") as f:
    sources = {row["file"]: row for row in csv.DictReader(f, delimiter="\t")}

for relative, row in sorted(sources.items()):
    stem = os.path.splitext(relative)[0].replace("/", "-")
    name = "corpus-" + re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-")
    folder = os.path.join(cases, name)
    os.makedirs(folder, exist_ok=True)
    base = os.path.basename(relative)
    shutil.copyfile(os.path.join(corpus, relative), os.path.join(folder, base))
    with open(os.path.join(folder, "args"), "w", encoding="utf-8") as f:
        f.write("--now\n2026-11-22T09:00:00Z\n" + base + "\n")
    with open(os.path.join(folder, "ORIGIN"), "w", encoding="utf-8") as f:
        for key in ("repo_or_url", "path_in_repo_or_page", "license", "valid_or_invalid", "note"):
            f.write(f"{key}: {row[key]}\n")
print(f"{len(sources)} corpus cases in {os.path.relpath(cases)}")
