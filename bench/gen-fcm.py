#!/usr/bin/env python3
"""Write N synthetic FCM HTTP v1 send requests as NDJSON, the same bytes on every run.

Usage: bench/gen-fcm.py N [--seed S] > fcm.ndjson

Each line is `{"message": {...}}` for one of about 30 apps: a target (about 70% a registration
token, 25% a topic, 5% a condition), a cross-platform `notification`, string-valued `data`, and
platform blocks: `android` (priority, ttl, a notification with tag and channel) on about 80%,
`apns` (headers and a payload with an alert, thread-id and badge) on about 70%, `webpush` (RFC
8030 headers and a notification) on about 20%. About 20% of lines carry non-ASCII text. Every
line is valid and FCM's rules accept it (notification and data under 2048 bytes); lines average
about 600 bytes. Only the seed decides the output, and line k does not depend on N.
"""

import json
import random
import sys

WORDS = ("lunch meeting update order shipped arrived reminder match score goal alert photo "
         "comment reply story episode ready today tomorrow soon ticket flight gate").split()
INTL = ["Café prêt", "会議は10時から", "Привет, мир", "مرحبا", "Grüße aus Köln", "🎉 Party time"]


def message(k, seed):
    r = random.Random(seed * 1_000_003 + k)
    app = r.randrange(30)
    words = lambda n: " ".join(r.choice(WORDS) for _ in range(n))
    title = words(r.randint(1, 4)).capitalize()
    body = words(r.randint(4, 14)).capitalize() + "."
    if r.random() < 0.2:
        body = r.choice(INTL) + " " + body
    m = {}
    target = r.random()
    if target < 0.70:
        m["token"] = "".join(r.choice("abcdefghijklmnopqrstuvwxyz0123456789_-:") for _ in range(64))
    elif target < 0.95:
        m["topic"] = f"app{app}-news-{r.randrange(20)}"
    else:
        m["condition"] = f"'app{app}-a' in topics && ('app{app}-b' in topics || 'app{app}-c' in topics)"
    m["notification"] = {"title": title, "body": body}
    m["data"] = {"thread": f"t{r.randrange(500)}", "item": str(r.randrange(10**6))}
    if r.random() < 0.8:
        m["android"] = {
            "priority": r.choice(["high", "normal"]),
            "ttl": f"{r.randrange(60, 86400)}s",
            "notification": {"tag": f"t{r.randrange(500)}", "channel_id": "messages",
                             "notification_count": r.randrange(10)},
        }
    if r.random() < 0.7:
        m["apns"] = {
            "headers": {"apns-priority": "10", "apns-topic": f"com.example.app{app}"},
            "payload": {"aps": {"alert": {"title": title, "body": body},
                                "thread-id": f"t{r.randrange(500)}", "badge": r.randrange(10)}},
        }
    if r.random() < 0.2:
        m["webpush"] = {"headers": {"TTL": "3600", "Urgency": "normal"},
                        "notification": {"title": title, "body": body, "tag": f"t{r.randrange(9)}"}}
    return {"message": m}


def main():
    args = sys.argv[1:]
    seed = 1
    if "--seed" in args:
        i = args.index("--seed")
        seed = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 1 or not args[0].isdigit():
        sys.exit("usage: bench/gen-fcm.py N [--seed S]")
    out = sys.stdout
    for k in range(int(args[0])):
        out.write(json.dumps(message(k, seed), ensure_ascii=False, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
