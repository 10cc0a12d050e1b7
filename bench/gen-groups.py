#!/usr/bin/env python3
"""Writes COUNT group objects in notif-group's output shape (see notif-summarize(1)), one a
line, for bench/summarize.sh. Deterministic and prefix-stable: the first N lines are the same
for every COUNT >= N. Items are left out (`"items":null`, as `notif-group --no-items` writes),
so a line is about one leading record long.

usage: bench/gen-groups.py COUNT > groups.ndjson
"""
import json
import random
import sys

CATEGORIES = ["message", "chat", "photo", "episode", "mail", None, "alarm"]
NAMES = ["Alice", "Bob", "Carol", "Dan", "Eve", "Frank", "Grace", "Heidi", "Ivan", "Judy"]


def record(rng, index, category, argument, weight, minute):
    title = argument or "Update"
    body = "Message %d in the thread, with some text to make it realistic" % index
    return {
        "id": "%016x" % (index * 2654435761 % (1 << 64)),
        "app": "com.example.chat", "thread_id": "thread-%d" % (index % 5000),
        "category": category, "title": title, "subtitle": None, "body": body,
        "title_loc_key": None, "title_loc_args": None, "subtitle_loc_key": None,
        "subtitle_loc_args": None, "loc_key": None, "loc_args": None,
        "created_at": "2026-11-22T%02d:%02d:00Z" % (minute // 60 % 24, minute % 60),
        "relevance": None, "interruption_level": None, "badge": None, "sound": "default",
        "sound_critical": False, "sound_volume": None, "summary_arg": argument,
        "summary_arg_count": weight, "collapse_id": None, "expires_at": None, "priority": None,
        "push_type": "alert", "topic": None, "content_available": False,
        "mutable_content": False, "target_content_id": None, "event": None, "timestamp": None,
        "stale_at": None, "dismiss_at": None, "read_at": None, "seen_at": None,
        "payload": {"aps": {"alert": {"title": title, "body": body}, "category": category}},
    }


def main():
    count = int(sys.argv[1])
    out = sys.stdout
    for index in range(count):
        rng = random.Random(index)
        size = rng.choice([1, 2, 3, 5, 8, 13])
        mixed = rng.random() < 0.2
        base = rng.choice(CATEGORIES)
        records = []
        for position in range(size):
            category = rng.choice(CATEGORIES) if mixed else base
            argument = rng.choice(NAMES) if category in ("message", "mail") else None
            weight = rng.choice([1, 1, 1, 2, 3]) if category == "episode" else 1
            records.append((category, argument, weight, 600 - position))
        lead = record(rng, index, *records[0])
        more = records[1:]
        cats = {}
        for category, _, weight, _ in more:
            entry = cats.setdefault(category, {"category": category, "count": 0, "weight": 0})
            entry["count"] += 1
            entry["weight"] += weight
        cat_list = sorted(cats.values(), key=lambda e: (e["category"] is not None, e["category"] or ""))
        args = {}
        for _, argument, _, minute in more:
            if argument:
                entry = args.setdefault(argument, {"summary_arg": argument, "count": 0,
                    "latest_at": "2026-11-22T%02d:%02d:00Z" % (minute // 60 % 24, minute % 60)})
                entry["count"] += 1
        group = {
            "app": "com.example.chat", "thread_id": lead["thread_id"], "count": size,
            "unread_count": size, "new_count": size, "latest_at": lead["created_at"],
            "leading": lead, "more_count": size - 1,
            "more_weight": sum(w for _, _, w, _ in more), "more_categories": cat_list,
            "more_summary_args": list(args.values()), "items": None, "items_omitted": size,
        }
        out.write(json.dumps(group, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
