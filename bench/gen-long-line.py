#!/usr/bin/env python3
"""Write one long JSON text, about SIZE bytes on one line, with its bulk in one kind of place.

usage: bench/gen-long-line.py KIND SIZE > line.ndjson

SIZE is bytes, or with a k, m or g suffix (powers of 1000: 100m is 100,000,000 bytes). The text
is valid JSON, ends in a line feed, and its length is within a few hundred bytes of SIZE. KIND
says what the text is and where its bulk is:

  payload-body payload-title payload-summary-arg payload-thread-id payload-category
  payload-deep payload-members   an APNs payload (notif-parse's input): one big string in
                                 aps.alert.body, .title, .summary-arg, aps.thread-id or
                                 aps.category; a big string 100 objects deep beside aps; or
                                 many small custom members beside aps
  record-body record-title record-summary-arg record-thread-id record-app record-category
  record-deep record-members     a notification record (notif(5)): the same, in the record's
                                 field and in its kept payload (app: the record's only), so
                                 a record with a big body holds two strings of half SIZE
  thread-records                 not one line: small records of one thread, SIZE bytes of
                                 them, for notif-group to make one big group object of

The bytes depend on KIND and SIZE only. Written in pieces, so a 1 GB text takes little memory.
"""

import json
import sys

FILL = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. "


def size_arg(text):
    scale = {"k": 10**3, "m": 10**6, "g": 10**9}.get(text[-1:].lower(), 1)
    return int(text[:-1] if scale > 1 else text) * scale


def filler(n, out):
    """Writes n bytes of plain ASCII text (no quote, no backslash), in pieces."""
    block = FILL * ((1 << 16) // len(FILL))  # whole copies: the text is FILL over and over
    while n > 0:
        piece = block[: min(n, len(block))]
        out.write(piece)
        n -= len(piece)


def record_head(**fields):
    base = {
        "id": "0123456789abcdef", "app": "com.example.chat", "thread_id": "t1",
        "category": "message", "title": "Alice", "body": "Hello", "created_at": "2026-11-22T08:00:00Z",
        "summary_arg": "Alice", "summary_arg_count": 1, "push_type": "alert",
    }
    base.update(fields)
    return base


BIG = "\x00BIG\x00"  # stands for the big string while the rest is encoded with json.dumps


def write_with_big(obj, n, out):
    """Writes obj as compact JSON, where each string BIG is n bytes of filler (split evenly)."""
    text = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
    quoted = json.dumps(BIG)
    parts = text.split(quoted)
    share = n // max(len(parts) - 1, 1)
    for k, part in enumerate(parts):
        out.write(part)
        if k < len(parts) - 1:
            out.write('"')
            filler(share, out)
            out.write('"')
    out.write("\n")


def deep(depth, leaf):
    value = leaf
    for _ in range(depth):
        value = {"d": value}
    return value


def write_members(prefix, suffix, n, out):
    """Writes prefix, then members "m00000001":1,... for about n bytes, then suffix."""
    out.write(prefix)
    written = 0
    k = 0
    chunk = []
    while written < n:
        member = '%s"m%08d":%d' % ("," if k else "", k, k % 10)
        chunk.append(member)
        written += len(member)
        k += 1
        if len(chunk) == 4096:
            out.write("".join(chunk))
            chunk = []
    out.write("".join(chunk))
    out.write(suffix)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: bench/gen-long-line.py KIND SIZE")
    kind, n = sys.argv[1], size_arg(sys.argv[2])
    out = sys.stdout
    if kind.startswith("payload-"):
        alert = {"title": "Alice", "body": "Hello", "summary-arg": "Alice"}
        aps = {"alert": alert, "thread-id": "t1", "category": "message"}
        payload = {"aps": aps}
        where = kind[len("payload-"):]
        if where in ("body", "title", "summary-arg"):
            alert[where] = BIG
        elif where in ("thread-id", "category"):
            aps[where] = BIG
        elif where == "deep":
            payload["custom"] = deep(100, {"x": BIG})
        elif where == "members":
            head = json.dumps(payload, separators=(",", ":"))[:-1] + ',"custom":{'
            write_members(head, "}}\n", n, out)
            return
        else:
            sys.exit("gen-long-line: unknown kind " + kind)
        write_with_big(payload, n, out)
    elif kind.startswith("record-"):
        where = kind[len("record-"):]
        field = where.replace("-", "_")
        alert = {"title": "Alice", "body": "Hello", "summary-arg": "Alice"}
        payload = {"aps": {"alert": alert, "thread-id": "t1", "category": "message"}}
        record = record_head()
        if field in ("body", "title", "summary_arg"):
            record[field] = BIG
            alert[where] = BIG
        elif field == "thread_id":
            record[field] = BIG
            payload["aps"]["thread-id"] = BIG
        elif field == "app":
            record["app"] = BIG
        elif field == "category":
            record[field] = BIG
            payload["aps"]["category"] = BIG
        elif field == "deep":
            payload["custom"] = deep(100, {"x": BIG})
        elif field == "members":
            record["payload"] = payload
            head = json.dumps(record, separators=(",", ":"))[:-2] + ',"custom":{'
            write_members(head, "}}}\n", n, out)
            return
        else:
            sys.exit("gen-long-line: unknown kind " + kind)
        record["payload"] = payload
        write_with_big(record, n, out)
    elif kind == "thread-records":
        # Many lines: small records of one thread, newest last, for notif-group to make one
        # big group object of.
        written = 0
        k = 0
        while written < n:
            minute = k % (24 * 60)
            record = record_head(
                id="%016x" % k, title="Sender %d" % (k % 97), summary_arg="Sender %d" % (k % 97),
                body="Message %d of the thread" % k,
                created_at="2026-11-%02dT%02d:%02d:00Z" % (21 - k // (24 * 60) % 20, minute // 60, minute % 60))
            line = json.dumps(record, separators=(",", ":")) + "\n"
            out.write(line)
            written += len(line)
            k += 1
    else:
        sys.exit("gen-long-line: unknown kind " + kind)


if __name__ == "__main__":
    main()
