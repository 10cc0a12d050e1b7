#!/usr/bin/env python3
"""Rewrites the `app` and `thread_id` of notif-parse's records so that they fall into many
groups, for bench/group.sh --threads: the records of bench/gen-payloads.py hold about 500
threads (1,031 groups), which says nothing of the memory and the speed per group.

usage: bench/regroup.py THREADS|each < records.ndjson > regrouped.ndjson

Only alert records (`"push_type":"alert"`) are rewritten: the others, which notif-group leaves
out (notif(5), "What the device lists"), keep their values. With a number, alert record k gets
one of THREADS threads at random (seeded; 200,000 records over 50,000 threads make 48,394
groups); with `each`, alert record k gets thread k of its own, so every alert record is a group
(1,176,000 records make 1,000,206 groups). Thread t is `bench-t` of app
`com.example.bench(t % 30)`, so the group count is the count of threads drawn. Only the two
values change: the rest of each record keeps its bytes. Deterministic and prefix-stable, as the
inputs it is given are.

notif-parse writes `id`, `app` and `thread_id` first and the kept payload last, so the first
`"app":` and `"thread_id":` of a line are the record's own.
"""
import random
import re
import sys

APP = re.compile(rb'"app":(?:null|"(?:[^"\\]|\\.)*")')
THREAD = re.compile(rb'"thread_id":(?:null|"(?:[^"\\]|\\.)*")')


def main():
    if len(sys.argv) != 2 or not (sys.argv[1] == "each" or sys.argv[1].isdigit()):
        sys.exit("usage: bench/regroup.py THREADS|each < records.ndjson > regrouped.ndjson")
    each = sys.argv[1] == "each"
    threads = 0 if each else int(sys.argv[1])
    rng = random.Random(20261122)
    out = sys.stdout.buffer
    index = 0
    for line in sys.stdin.buffer:
        if b'"push_type":"alert"' not in line:
            out.write(line)
            continue
        thread = index if each else rng.randrange(threads)
        line = APP.sub(b'"app":"com.example.bench%d"' % (thread % 30), line, count=1)
        line = THREAD.sub(b'"thread_id":"bench-%d"' % thread, line, count=1)
        out.write(line)
        index += 1


if __name__ == "__main__":
    main()
