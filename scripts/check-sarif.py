#!/usr/bin/env python3
"""Checks SARIF logs as code scanning would take them: each is valid against the OASIS SARIF
2.1.0 schema (Tests/EndToEndTests/Fixtures/sarif/), and sarif-tools (PyPI), a SARIF consumer
of its own, reads it back. Prints one JSON line a result, as sarif-tools read it:

  {"log": LOG, "tool": ..., "rule": ..., "level": ..., "uri": ..., "line": ..., "message": ...}

usage: scripts/check-sarif.py LOG...

Exit status 0 when every log is valid and read, 1 when one is not (saying why on standard
error), 2 when jsonschema or sarif-tools is not installed (make check-deps installs both).
"""

import json
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SCHEMA = os.path.join(ROOT, "Tests", "EndToEndTests", "Fixtures", "sarif", "sarif-schema-2.1.0.json")


def main():
    logs = sys.argv[1:]
    if not logs or logs[0].startswith("-"):
        sys.stderr.write("usage: scripts/check-sarif.py LOG...\n")
        return 2
    try:
        import jsonschema
        from sarif import loader
    except ImportError as error:
        sys.stderr.write("check-sarif: %s (make check-deps installs jsonschema and sarif-tools)\n"
                         % error)
        return 2
    with open(SCHEMA, encoding="utf-8") as f:
        validator = jsonschema.Draft4Validator(json.load(f),
                                               format_checker=jsonschema.FormatChecker())
    status = 0
    for log in logs:
        try:
            with open(log, encoding="utf-8") as f:
                document = json.load(f)
        except (OSError, ValueError) as error:
            sys.stderr.write("check-sarif: %s: %s\n" % (log, error))
            status = 1
            continue
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
        for error in errors:
            where = "/".join(str(part) for part in error.absolute_path) or "(the log)"
            sys.stderr.write("check-sarif: %s: %s: %s\n" % (log, where, error.message))
        if errors:
            status = 1
            continue
        read = loader.load_sarif_file(log)
        records = read.get_records()
        if len(records) != read.get_result_count():
            sys.stderr.write("check-sarif: %s: sarif-tools read %d of %d results\n"
                             % (log, len(records), read.get_result_count()))
            status = 1
        for record in records:
            print(json.dumps({
                "log": log,
                "tool": record["Tool"],
                "rule": record["Code"],
                "level": record["Severity"],
                "uri": record["Location"],
                "line": record["Line"],
                "message": record["Description"],
            }, ensure_ascii=False, sort_keys=True))
    return status


if __name__ == "__main__":
    sys.exit(main())
