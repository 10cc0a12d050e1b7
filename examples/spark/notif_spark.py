#!/usr/bin/env python3
"""The notif filters as stages of a Spark job, with the bytes one process would write.

Usage:
  notif_spark.py summarize PAYLOADS OUT --now TIME [--partitions N] [--fan-in K]
                 [--categories FILE] [--group-option OPT]... [--bin DIR] [--master URL]
  notif_spark.py parse PAYLOADS OUT --now TIME [--partitions N] [--bin DIR] [--master URL]
  notif_spark.py group RECORDS OUT [--partitions N] [--fan-in K] [--group-option OPT]...
                 [--bin DIR] [--master URL]
  notif_spark.py expire RECORDS OUT --policy FILE --now TIME [--partitions N]
                 [--bin DIR] [--master URL]
  notif_spark.py digest RECORDS OUT --now TIME [--digest-option OPT]... [--partitions N]
                 [--bin DIR] [--master URL]

summarize: reads APNs payloads (NDJSON), turns them into records with notif-parse, groups each
partition with `notif-group --no-items`, merges the partial groups with `notif-group --merge` in
a tree of at most K partitions a merge (partitions taken in input order, so ties keep input
order), then runs notif-summarize on the groups. OUT/part-* concatenated are the bytes of

  notif-parse --now TIME PAYLOADS | notif-group --no-items | notif-group --merge |
    notif-summarize

parse and group are its first stage and its grouping alone (what bench/scale.sh times):
`notif-parse --now TIME PAYLOADS` and `notif-group --no-items RECORDS`.

expire: reads records, partitions them by app (every record of an app in one partition, in input
order: what notif-expire's collapse and `keep` caps need), runs notif-expire on each, and puts
the kept records back in input order. OUT/part-* concatenated are the bytes of

  notif-expire --policy FILE --now TIME RECORDS

digest: reads records, partitions them by app as expire does (every record of an app in one
partition, in input order: the digests of a key need all its records, in order, and the key
must hold the app, as notif-digest's default does), runs notif-digest on each, then
`notif-digest --merge` on all their digests in one partition, which writes them in window order.
OUT/part-* concatenated are the bytes of

  notif-digest --now TIME OPTS... RECORDS | notif-digest --merge

The input order comes back from the line's number, carried through notif-expire inside the
record: each record gets a first member "\\u0000line" (a key no notif tool reads; notif-expire
keeps lines byte for byte), taken out again after. Blank lines, which notif-expire keeps, skip
it; a line that is not a record, or an empty object, cannot hold it and stops the job, as
notif-expire's exit status 1 for it would.

The traps this avoids: RDD.pipe starts each command with an empty environment (PATH, the
locale, TMPDIR and SOURCE_DATE_EPOCH are passed here, and --now is required, so that every
partition expires at the same instant), and ignores a command that fails unless checkCode is set
(it is: exit status 1, a rejected record, fails the job; reject nothing, or filter first). A
command runs for every partition, an empty one too: every stage here writes nothing for no
input. Spark's textFile splits lines at LF, CR and CRLF and replaces invalid UTF-8 with U+FFFD:
the input must be UTF-8 NDJSON with LF line ends (what notif-parse writes), and a line holding
U+FFFD stops the job rather than come out different. Files named on a command line (the
policy, the categories) must be readable at the same path on every executor.
"""

import argparse
import json
import os
import re
import shlex
import sys
import zlib

from pyspark import SparkConf, SparkContext

# The member that carries a line's number through notif-expire.
LINE_KEY = '"\\u0000line":'
TAGGED = re.compile(r'^(\s*\{)"\\u0000line":(\d+),')
# notif-parse writes `id` then `app`: the app of such a record without parsing the line.
APP_AFTER_ID = re.compile(r'^\{"id":(?:null|"(?:[^"\\]|\\.)*"),"app":(null|"(?:[^"\\]|\\.)*")')


def tool_environment(bin_dir):
    """The environment of every notif command: RDD.pipe would give it none."""
    path = os.environ.get("PATH", "/usr/bin:/bin")
    if bin_dir:
        path = os.path.abspath(bin_dir) + os.pathsep + path
    env = {"PATH": path, "LC_ALL": os.environ.get("LC_ALL") or "C.UTF-8", "TZ": "UTC"}
    for name in ("LANG", "TMPDIR", "SOURCE_DATE_EPOCH"):
        if os.environ.get(name):
            env[name] = os.environ[name]
    return env


def stage(rdd, argv, env):
    """The lines of each partition through one run of `argv`; a failing run fails the job."""
    return rdd.pipe(shlex.join(argv), env=env, checkCode=True)


def refuse_replaced_bytes(line):
    """Stops the job at a line Spark may have changed: see the module's description."""
    if "\ufffd" in line:
        raise ValueError(
            "a line holds U+FFFD, which Spark's textFile puts for invalid UTF-8: "
            "check the input with `notif-parse --check` or `iconv -f UTF-8` first: "
            + line[:80])
    return line


def read_lines(sc, path, partitions):
    lines = sc.textFile(path, minPartitions=partitions)
    print(f"notif_spark: {path}: {lines.getNumPartitions()} partitions", file=sys.stderr)
    return lines.map(refuse_replaced_bytes)


def in_order(rdd, partitions):
    """The lines of `rdd` in `partitions` partitions, each holding a run of consecutive input
    partitions, in order: what a merge of partial groups needs."""
    before = rdd.getNumPartitions()
    keyed = rdd.mapPartitionsWithIndex(
        lambda index, lines: (((index, k), line) for k, line in enumerate(lines)))
    return keyed.repartitionAndSortWithinPartitions(
        numPartitions=partitions, partitionFunc=lambda key: key[0] * partitions // before
    ).values()


def parsed(sc, args, env):
    """The records of the payloads, partition by partition."""
    payloads = read_lines(sc, args.input, args.partitions)
    return stage(payloads, ["notif-parse", "--now", args.now], env)


def grouped(records, args, env):
    """The groups of the records: partial groups of each partition, merged in a tree whose
    every level merges runs of at most --fan-in consecutive partitions; one partition."""
    groups = stage(records, ["notif-group", "--no-items"] + args.group_option, env)
    while groups.getNumPartitions() > 1:
        count = -(-groups.getNumPartitions() // args.fan_in)
        groups = stage(in_order(groups, count), ["notif-group", "--merge"], env)
    return groups


def parse(sc, args, env):
    parsed(sc, args, env).saveAsTextFile(args.output)


def group(sc, args, env):
    grouped(read_lines(sc, args.input, args.partitions), args, env).saveAsTextFile(args.output)


def summarize(sc, args, env):
    groups = grouped(parsed(sc, args, env), args, env)
    summarize_argv = ["notif-summarize"]
    if args.categories:
        summarize_argv += ["--categories", os.path.abspath(args.categories)]
    stage(groups, summarize_argv, env).saveAsTextFile(args.output)


def app_key(line):
    """The app of a record line, decoded: equal apps spelled with different escapes meet."""
    match = APP_AFTER_ID.match(line)
    try:
        app = json.loads(match.group(1)) if match else json.loads(line).get("app")
    except (ValueError, AttributeError):
        app = None  # notif-expire keeps what it cannot read: any partition will do
    return app if isinstance(app, str) else None


def partition_of_app(app, partitions):
    # Not hash(): Python randomizes it per process for strings.
    return 0 if app is None else zlib.crc32(app.encode("utf-8")) % partitions


def is_blank(line):
    return line.strip(" \t") == ""


def object_start(line):
    """Where the member "\\u0000line" goes: after the `{` that starts the line's record."""
    start = len(line) - len(line.lstrip(" \t"))
    if not line.startswith("{", start) or line[start + 1:].lstrip(" \t").startswith("}"):
        raise ValueError(
            "a line that is not a record, which notif-expire rejects (exit status 1): "
            + line[:80])
    return start + 1


def expire(sc, args, env):
    lines = read_lines(sc, args.input, args.partitions).zipWithIndex()
    records = lines.filter(lambda pair: not is_blank(pair[0]))
    blanks = lines.filter(lambda pair: is_blank(pair[0])).map(lambda pair: (pair[1], pair[0]))

    def tag(pair):
        line, number = pair
        at = object_start(line)
        return (app_key(line), number), line[:at] + LINE_KEY + str(number) + "," + line[at:]

    partitions = args.partitions
    by_app = records.map(tag).repartitionAndSortWithinPartitions(
        numPartitions=partitions,
        partitionFunc=lambda key: partition_of_app(key[0], partitions),
        keyfunc=lambda key: key[1],
    ).values()
    kept = stage(
        by_app, ["notif-expire", "--policy", os.path.abspath(args.policy), "--now", args.now],
        env)

    def untag(line):
        match = TAGGED.match(line)
        if not match:
            raise ValueError("notif-expire wrote a line without its number: " + line[:80])
        return int(match.group(2)), match.group(1) + line[match.end():]

    kept.map(untag).union(blanks).sortByKey(numPartitions=partitions).values().saveAsTextFile(
        args.output)


def digest(sc, args, env):
    records = read_lines(sc, args.input, args.partitions).zipWithIndex().filter(
        lambda pair: not is_blank(pair[0]))
    partitions = args.partitions
    # By app, each partition in input order: the line's number is the key it is sorted by, and
    # the record goes through as it is (its digests copy it).
    by_app = records.map(lambda pair: ((app_key(pair[0]), pair[1]), pair[0])) \
        .repartitionAndSortWithinPartitions(
            numPartitions=partitions,
            partitionFunc=lambda key: partition_of_app(key[0], partitions),
            keyfunc=lambda key: key[1],
        ).values()
    digests = stage(by_app, ["notif-digest", "--now", args.now] + args.digest_option, env)
    # The partitions hold different keys: the merge joins none, and writes them in window order.
    stage(digests.coalesce(1), ["notif-digest", "--merge"], env).saveAsTextFile(args.output)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("summarize", "parse", "group", "expire", "digest"):
        command = commands.add_parser(name)
        command.add_argument("input")
        command.add_argument("output", help="a directory Spark writes part-* files into")
        if name != "group":
            command.add_argument("--now", required=True, help="the time every partition runs at")
        command.add_argument("--partitions", type=int, default=8)
        command.add_argument("--bin", help="the folder of the notif-* binaries")
        command.add_argument("--master", default="local[2]")
        if name in ("summarize", "group"):
            command.add_argument("--fan-in", type=int, default=8)
            command.add_argument(
                "--group-option", action="append", default=[],
                help="an argument for notif-group, such as --by=app (repeatable)")
        if name == "summarize":
            command.add_argument("--categories")
        if name == "expire":
            command.add_argument("--policy", required=True)
        if name == "digest":
            command.add_argument(
                "--digest-option", action="append", default=[],
                help="an argument for notif-digest, such as --window=1h (repeatable)")
    args = parser.parse_args(argv)
    if args.partitions < 1 or getattr(args, "fan_in", 2) < 2:
        parser.error("--partitions must be 1 or more and --fan-in 2 or more")
    conf = (SparkConf().setMaster(args.master).setAppName("notif " + args.command)
            .set("spark.ui.enabled", "false").set("spark.ui.showConsoleProgress", "false"))
    sc = SparkContext(conf=conf)
    sc.setLogLevel("ERROR")
    try:
        env = tool_environment(args.bin)
        commands = {"summarize": summarize, "parse": parse, "group": group, "expire": expire,
                    "digest": digest}
        commands[args.command](sc, args, env)
    finally:
        sc.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
