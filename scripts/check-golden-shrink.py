#!/usr/bin/env python3
"""Prove that golden expectations changed only by the null keys dropped from their inputs.

    scripts/check-golden-shrink.py [BASE]     # BASE: a git revision, default HEAD

Compares every case under Tests/EndToEndTests/cases in the working tree with the same case at
BASE (symbolic links followed on both sides, so moving an input to a shared file is no change).
For each case:

1. inputs: every file but args, cmd, env, ORIGIN and the expectations has the same bytes, or
   is an NDJSON file whose changed lines are the old line minus members `"key":null` of a
   record (the line itself, or a group object's `leading` and `items`), in the same order.
   K is the set of keys so removed anywhere in the case's inputs.
2. stdout.ndjson: equals the old one with, in every record of every line (an object with an
   "id" key, or the `leading` and `items` of an object with a "leading" key), the members
   `"k":null` for k in K removed. Lines that are not compact JSON objects stay as they were.
3. status: identical.
4. stderr.txt: identical, except that a diagnostic's column (`FILE:LINE:COL:`, `"column":N`,
   `col=N`) on a changed input line may move left by exactly the bytes removed before it on
   that line. Each such line is listed, for a reader to check by hand.

Prints the cases whose expectations changed, the shifted diagnostics and the input line lengths
before and after; exits 1 if any case fails.
"""

import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES_REL = "Tests/EndToEndTests/cases"
RECORD_TOOLS = {"notif-group", "notif-summarize", "notif-expire", "notif-mark"}
NOT_INPUTS = {"args", "cmd", "env", "ORIGIN", "stdout.ndjson", "stderr.txt", "status"}


def git(*args):
    return subprocess.run(["git", "-C", ROOT, *args], check=True, capture_output=True).stdout


class Tree:
    """Files of one git revision, with symbolic links resolved."""

    def __init__(self, rev):
        self.rev = rev
        self.entries = {}
        out = git("ls-tree", "-r", "-z", rev, "--", "Tests/EndToEndTests")
        for entry in out.split(b"\0"):
            if not entry:
                continue
            meta, path = entry.split(b"\t", 1)
            mode, _, sha = meta.split()
            self.entries[path.decode()] = (mode.decode(), sha.decode())

    def read(self, path, depth=0):
        entry = self.entries.get(os.path.normpath(path))
        if entry is None:
            return None
        mode, sha = entry
        data = git("cat-file", "blob", sha)
        if mode == "120000" and depth < 8:
            target = os.path.normpath(os.path.join(os.path.dirname(path), data.decode()))
            return self.read(target, depth + 1)
        return data

    def files_under(self, folder):
        prefix = folder + "/"
        return sorted(p[len(prefix) :] for p in self.entries if p.startswith(prefix))


def read_work(path):
    full = os.path.join(ROOT, path)
    if not os.path.isfile(full):
        return None
    with open(full, "rb") as f:
        return f.read()


def work_files_under(folder):
    out = []
    base = os.path.join(ROOT, folder)
    for dirpath, _, files in os.walk(base):
        for name in files:
            out.append(os.path.relpath(os.path.join(dirpath, name), base))
    return sorted(out)


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def parse_compact(line):
    """The object a line holds, if it is one written compactly (it reads back byte for byte)."""
    try:
        obj = json.loads(line)
    except ValueError:
        return None
    if isinstance(obj, dict) and compact(obj) == line:
        return obj
    return None


def serialize(value, drop, record):
    """Compact JSON of value, and the byte spans of the members it has without drop(record).

    drop(record) names the keys whose null members to remove from one record.

    Only the members of records are candidates: the value itself when record is True, and in a
    group object (a dict with "leading") its `leading` and the elements of `items`."""
    if not isinstance(value, dict):
        if isinstance(value, list):
            out, spans = bytearray(b"["), []
            for i, element in enumerate(value):
                if i:
                    out += b","
                text, inner = serialize(element, drop, False)
                spans += [(s + len(out), e + len(out)) for s, e in inner]
                out += text
            return bytes(out + b"]"), spans
        return compact(value), []
    out, spans, members = bytearray(b"{"), [], []
    dropped = drop(value) if record else set()
    for i, (key, member) in enumerate(value.items()):
        if i:
            out += b","
        start = len(out)
        out += compact(key) + b":"
        is_group = "leading" in value and not record
        if is_group and key == "leading":
            text, inner = serialize(member, drop, True)
        elif is_group and key == "items" and isinstance(member, list):
            text, inner = bytearray(b"["), []
            for j, element in enumerate(member):
                if j:
                    text += b","
                etext, einner = serialize(element, drop, True)
                inner += [(s + len(text), e + len(text)) for s, e in einner]
                text += etext
            text += b"]"
        else:
            text, inner = serialize(member, drop, False)
        spans += [(s + len(out), e + len(out)) for s, e in inner]
        out += text
        members.append((start, len(out), key in dropped and member is None))
    out += b"}"
    # A removed member takes its leading comma, or, before the first kept one, its trailing one.
    kept_before = False
    for n, (start, end, removed) in enumerate(members):
        if not removed:
            kept_before = True
        elif kept_before:
            spans.append((start - 1, end))
        elif n + 1 < len(members):
            spans.append((start, members[n + 1][0]))
        else:
            spans.append((start, end))
    return bytes(out), sorted(spans)


def cut(data, spans):
    out, last = bytearray(), 0
    for start, end in spans:
        out += data[last:start]
        last = end
    return bytes(out + data[last:])


def is_record_line(obj):
    return "id" in obj and "leading" not in obj


def shrink_diff(old_line, new_line):
    """How new_line is old_line without null members of its records, or None if it is not.

    Returns the old records with the keys removed from each, and the byte spans removed."""
    obj = parse_compact(old_line)
    if obj is None:
        return None
    new_obj = json.loads(new_line) if parse_compact(new_line) is not None else None
    if new_obj is None:
        return None
    records = []

    def collect(old, new):
        if isinstance(old, dict) and isinstance(new, dict):
            records.append((old, {k for k in old if k not in new and old[k] is None}))

    if "leading" in obj:
        collect(obj.get("leading"), new_obj.get("leading"))
        for old, new in zip(obj.get("items") or [], new_obj.get("items") or []):
            collect(old, new)
    else:
        collect(obj, new_obj)
    removed = {id(old): keys for old, keys in records}
    _, spans = serialize(obj, lambda record: removed.get(id(record), set()), "leading" not in obj)
    if not spans or cut(old_line, spans) != new_line:
        return None
    return [(old, keys) for old, keys in records if keys], spans


# What a tool may add to a record it passes on (an archive line), or set in it (notif-mark).
ADDED = {"removed_at", "removed_reason"}
SET = {"read_at", "seen_at"}


class Ambiguous(Exception):
    pass


def shrunk_keys(output_record, inputs):
    """The keys dropped from the input record that output_record passes on (empty if none)."""
    found = set()
    for record, keys in inputs.get(output_record.get("id"), []):
        if set(output_record) - set(record) <= ADDED and all(
            output_record.get(k) == v for k, v in record.items() if k not in SET
        ):
            found.add(frozenset(keys))
    if len(found) > 1:
        raise Ambiguous(f"record {output_record.get('id')!r} matches inputs shrunk differently")
    return set(found.pop()) if found else set()


def shrink_output(data, inputs):
    """data with the null keys dropped from the records that came from shrunk input records."""
    out = []
    for line in data.split(b"\n"):
        obj = parse_compact(line)
        if obj is None or not ("leading" in obj or is_record_line(obj)):
            out.append(line)
            continue
        _, spans = serialize(obj, lambda record: shrunk_keys(record, inputs), is_record_line(obj))
        out.append(cut(line, spans))
    return b"\n".join(out)


DIAGNOSTIC = [
    re.compile(rb"^(?P<pre>[\w-]+: (?P<file>[^:]+):(?P<line>\d+):)(?P<col>\d+)(?P<post>: .*)$"),
    re.compile(
        rb'^(?P<pre>\{"file":"(?P<file>[^"]+)","line":(?P<line>\d+),"column":)(?P<col>\d+)'
        rb"(?P<post>,.*)$"
    ),
    re.compile(rb"^(?P<pre>::\w+ file=(?P<file>[^,]+),line=(?P<line>\d+),col=)(?P<col>\d+)(?P<post>.*)$"),
]


def check_stderr(old, new, line_spans, case, shifted):
    """None if new is old but for moved columns (listed in shifted), else what differs."""
    old_lines, new_lines = old.split(b"\n"), new.split(b"\n")
    if len(old_lines) != len(new_lines):
        return "stderr has another number of lines"
    for o, n in zip(old_lines, new_lines):
        if o == n:
            continue
        match = next((m for m in (r.match(o) for r in DIAGNOSTIC) if m), None)
        if match is None:
            return f"stderr line changed: {o!r} -> {n!r}"
        name = match["file"].decode()
        name = "stdin.ndjson" if name == "<stdin>" else name
        spans = line_spans.get((name, int(match["line"])))
        if spans is None:
            return f"stderr column moved on an input line that did not change: {o!r}"
        col = int(match["col"])
        if any(start < col - 1 < end for start, end in spans):
            return f"a diagnostic points into a removed member: {o!r}"
        moved = col - sum(end - start for start, end in spans if end <= col - 1)
        expected = match["pre"] + str(moved).encode() + match["post"]
        if n != expected:
            return f"stderr line {n!r}, expected {expected!r}"
        shifted.append((case, o.decode(), n.decode()))
    return None


def main():
    base = sys.argv[1] if len(sys.argv) > 1 else "HEAD"
    tree = Tree(base)
    failures, changed, unchanged, shifted = [], [], 0, []
    lengths = {"before": [], "after": []}
    work_cases = sorted(
        f"{tool}/{name}"
        for tool in os.listdir(os.path.join(ROOT, CASES_REL))
        for name in os.listdir(os.path.join(ROOT, CASES_REL, tool))
    )
    old_cases = sorted({"/".join(p.split("/")[3:5]) for p in tree.entries if p.startswith(CASES_REL + "/")})
    if work_cases != old_cases:
        failures.append(("(all)", f"cases differ: {set(work_cases) ^ set(old_cases)}"))
    for case in work_cases:
        folder = f"{CASES_REL}/{case}"
        names = sorted(
            set(work_files_under(folder)) | set(tree.files_under(folder)), key=str
        )
        inputs, keys, line_spans, problem = {}, set(), {}, None
        record_case = case.split("/")[0] in RECORD_TOOLS and tree.read(f"{folder}/ORIGIN") is None
        for name in names:
            if os.path.basename(name) in NOT_INPUTS and "/" not in name:
                continue
            old, new = tree.read(f"{folder}/{name}"), read_work(f"{folder}/{name}")
            if old is None or new is None:
                problem = f"input {name} exists on one side only"
                break
            if name.endswith(".ndjson") and record_case:
                for line in old.split(b"\n"):
                    if line:
                        lengths["before"].append(len(line))
                for line in new.split(b"\n"):
                    if line:
                        lengths["after"].append(len(line))
            if old == new:
                continue
            old_lines, new_lines = old.split(b"\n"), new.split(b"\n")
            if len(old_lines) != len(new_lines):
                problem = f"input {name} has another number of lines"
                break
            for number, (o, n) in enumerate(zip(old_lines, new_lines), 1):
                if o == n:
                    continue
                diff = shrink_diff(o, n)
                if diff is None:
                    problem = f"input {name}:{number} changed by more than dropped null keys"
                    break
                for record, dropped in diff[0]:
                    inputs.setdefault(record.get("id"), []).append((record, dropped))
                    keys |= dropped
                line_spans[(name, number)] = diff[1]
            if problem:
                break
        if not problem:
            old_out = tree.read(f"{folder}/stdout.ndjson") or b""
            new_out = read_work(f"{folder}/stdout.ndjson") or b""
            old_err = tree.read(f"{folder}/stderr.txt") or b""
            new_err = read_work(f"{folder}/stderr.txt") or b""
            old_status = (tree.read(f"{folder}/status") or b"0").strip()
            new_status = (read_work(f"{folder}/status") or b"0").strip()
            try:
                if shrink_output(old_out, inputs) != new_out:
                    problem = "stdout is not the old stdout minus the dropped null keys"
                elif old_status != new_status:
                    problem = f"status {old_status!r} -> {new_status!r}"
                else:
                    # Archive lines may go to stderr (--archive /dev/stderr).
                    old_err = shrink_output(old_err, inputs)
                    problem = check_stderr(old_err, new_err, line_spans, case, shifted)
            except Ambiguous as error:
                problem = str(error)
            if not problem and (old_out, old_err) != (new_out, new_err):
                changed.append((case, sorted(keys)))
            elif not problem:
                unchanged += 1
        if problem:
            failures.append((case, problem))
    for case, keys in changed:
        print(f"changed  {case}  (dropped: {', '.join(keys)})")
    for case, old, new in shifted:
        print(f"column   {case}\n    was: {old}\n    now: {new}")
    for name, values in lengths.items():
        if values:
            print(f"record input lines {name}: {len(values)}, average {sum(values) / len(values):.0f} bytes, longest {max(values)}")
    print(f"{len(work_cases)} cases: {len(changed)} expectations changed only by the shrink, "
          f"{unchanged} unchanged, {len(failures)} failed")
    for case, problem in failures:
        print(f"FAILED   {case}: {problem}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
