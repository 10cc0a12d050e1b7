#!/usr/bin/env python3
"""Write N synthetic APNs payloads as NDJSON, the same bytes on every run.

Usage: bench/gen-payloads.py N [--seed S] > payloads.ndjson

The mix imitates a notification log of about 30 apps and 500 threads:

- about 85% alert pushes (`aps.alert` with title and body, thread-id, category, sound, badge,
  relevance-score, interruption-level, sometimes subtitle, summary-arg, mutable-content) with
  custom keys beside `aps`;
- about 10% background pushes (`"content-available":1`, no alert);
- about 5% Live Activity updates and ends (event, timestamp, content-state);
- about 20% of lines wrapped in an envelope: the APNs request headers, the payload and a
  `received_at` time (background pushes use priority "5", as APNs requires);
- about 20% of lines with non-ASCII text (accents, CJK, emoji, Arabic); of those, about one in
  seven is written with `\\uXXXX` escapes (surrogate pairs for emoji), as some server libraries
  do; about 3% of lines hold strings with `\\n`, `\\t`, `\\"` or `\\\\` escapes.

Every line is valid JSON with no duplicate keys and under 4096 bytes; lines average about 385
bytes (1M lines: about 386 MB). Only the seed decides the output (no clock, no environment, no
hash order), and line k does not depend on N: the first K lines of a run with N > K are the run
with K. Blocks of lines are made in parallel on all cores; 1M lines take about 30 s on 2 cores.
"""

import bisect
import itertools
import json
import multiprocessing
import os
import random
import sys

DEFAULT_SEED = 20261122
BLOCK_LINES = 10_000
MAX_PAYLOAD_BYTES = 4096

# Received times fall in the week before 2026-11-22T09:00:00Z, the `--now` of the benchmarks.
NOW_EPOCH = 1_795_338_000  # 2026-11-22T09:00:00Z
WEEK = 7 * 24 * 3600

APP_KINDS = [
    # (name, categories, thread prefix, custom builder name)
    ("Mail", ["NEW_MAIL", "MAIL_REPLY"], "mailbox", "mail"),
    ("Chat", ["MESSAGE", "MESSAGE_REPLY", "REACTION"], "conversation", "chat"),
    ("Shop", ["ORDER_UPDATE", "DELIVERY", "PROMO"], "order", "shop"),
    ("News", ["BREAKING", "DIGEST"], "topic", "news"),
    ("Bank", ["TRANSACTION", "SECURITY"], "account", "bank"),
    ("Sport", ["SCORE", "MATCH_START"], "match", "sport"),
    ("Ride", ["TRIP_STATUS", "DRIVER_ARRIVING"], "trip", "ride"),
    ("Social", ["LIKE", "COMMENT", "FOLLOW"], "post", "social"),
    ("Calendar", ["EVENT_REMINDER", "INVITE"], "calendar", "calendar"),
    ("Health", ["REMINDER", "GOAL"], "habit", "health"),
]

FIRST_NAMES = [
    "Alice", "Bob", "Carla", "Dmitri", "Emma", "Farid", "Grace", "Hiro", "Ines", "Jonas",
    "Kemal", "Lena", "Mateo", "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Sven", "Tamar",
    "Uma", "Victor", "Wen", "Ximena", "Yusuf", "Zoë", "Renée", "José", "Björn", "Łucja",
    "François", "Søren", "陈伟", "佐藤", "김민준", "Αλέξης", "Дарья", "محمد", "Ngọc", "Ayşe",
]

ASCII_NAMES = [name for name in FIRST_NAMES if name.isascii()]

ASCII_WORDS = (
    "the your order has shipped new message from meeting starts in minutes reminder payment "
    "received package out for delivery today tomorrow please confirm account update available "
    "score final half time goal driver arriving now weekly summary photo liked comment reply "
    "invoice ready review security alert sign in detected balance low transfer complete track "
    "team lunch project deadline moved draft shared flight gate changed boarding soon weather "
    "storm warning step goal reached water break time stand up listen episode new release"
).split()

NON_ASCII_PHRASES = [
    "Réunion déplacée à 15 h", "Café avec Zoë ☕", "Ihre Bestellung wurde verschickt",
    "Straße gesperrt – Umleitung", "¿Nos vemos mañana?", "Olá! Tudo bem? 🙂",
    "新消息来自陈伟", "会議は10時に始まります", "주문하신 상품이 발송되었습니다",
    "Привет! Как дела?", "Καλημέρα από την Αθήνα", "مرحبا، لديك رسالة جديدة",
    "Tin nhắn mới từ Ngọc", "Gol! 2–1 ⚽", "🎉 Congratulations!", "🔥 Hot deal: −30 %",
    "👍 liked your photo", "📦 Delivered", "🚗 Your driver is 2 min away", "❤️ New match",
    "Żółć gęślą jaźń", "naïve café résumé", "Ørsted søger 🌬️", "Dziękujemy za zakup",
]

ESCAPE_SNIPPETS = [
    "Line one\nLine two", 'He said "on my way"', 'Title: "Q4 plan"\nsee attached',
    "C:\\Users\\shared\\report.pdf", "tab\tseparated", "1. milk\n2. eggs\n3. bread",
]

HABITS = ["water", "steps", "sleep", "mood", "stretch"]

EXPIRATIONS = [3600, 86400, 3 * 86400, 7 * 86400, 28 * 86400]

SOUNDS = ["default", "default", "default", "default", "chime.caf", "ping.aiff"]


def make_apps(rng):
    """30 apps: each of the ten kinds three times, with numbered bundle ids."""
    apps = []
    for n in range(1, 31):
        name, categories, prefix, custom = APP_KINDS[(n - 1) % len(APP_KINDS)]
        apps.append({
            "topic": f"com.example.app{n}",
            "name": name,
            "categories": categories,
            "prefix": prefix,
            "custom": custom,
            "scheme": f"app{n}",
            "threads": [],
        })
    # 500 threads spread unevenly: a few busy apps hold most of them.
    weights = [1.0 / (i + 1) ** 0.8 for i in range(len(apps))]
    for t in range(500):
        app = apps[t] if t < len(apps) else rng.choices(apps, weights)[0]
        app["threads"].append(f"{app['prefix']}-{t:04d}-{rng.getrandbits(24):06x}")
    return apps, weights


class Generator:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.r = self.rng.random
        self.apps, self.app_weights = make_apps(self.rng)
        self.app_cumulative = list(itertools.accumulate(self.app_weights))
        # Pools of ready-made ASCII texts: drawing one is much cheaper than drawing its words.
        self.titles = [self.words(2, 4).capitalize() for _ in range(4000)]
        self.subtitles = [self.words(2, 4).capitalize() for _ in range(1000)]
        self.bodies = [self.words(3, 9).capitalize() for _ in range(20000)]
        self.stop_names = [self.words(1, 2) for _ in range(500)]
        self.compact = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
        self.ascii = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"))

    # Text ------------------------------------------------------------------------------------

    def words(self, low, high):
        rng = self.rng
        return " ".join(rng.choice(ASCII_WORDS) for _ in range(rng.randint(low, high)))

    def pick(self, items):
        return items[int(self.r() * len(items))]

    def between(self, low, high):
        return low + int(self.r() * (high - low + 1))

    def text(self, pool, non_ascii, escapes):
        text = self.pick(pool)
        if non_ascii:
            phrase = self.pick(NON_ASCII_PHRASES)
            text = phrase + " " + text if self.r() < 0.5 else text + " " + phrase
        if escapes:
            text = text + " " + self.pick(ESCAPE_SNIPPETS)
        return text

    def person(self, non_ascii=False):
        return self.pick(FIRST_NAMES if non_ascii else ASCII_NAMES)

    def uuid(self):
        bits = self.rng.getrandbits(128)
        bits = (bits & ~(0xF << 76)) | (0x4 << 76)  # version 4
        bits = (bits & ~(0x3 << 62)) | (0x2 << 62)  # RFC 4122 variant
        h = f"{bits:032X}"
        return f"{h[0:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"

    def hex_id(self, digits):
        return f"{self.rng.getrandbits(4 * digits):0{digits}x}"

    # Custom data beside aps ------------------------------------------------------------------

    def custom(self, app, non_ascii):
        r, pick, between, hex_id = self.r, self.pick, self.between, self.hex_id
        kind = app["custom"]
        if kind == "mail":
            data = {"message_id": "<" + hex_id(12) + "@mail.example.com>",
                    "folder": pick(("INBOX", "INBOX", "Work", "Receipts")),
                    "unread": between(0, 250)}
        elif kind == "chat":
            data = {"conversation_id": hex_id(12), "sender_id": between(1, 10**6),
                    "sender_name": self.person(non_ascii)}
        elif kind == "shop":
            data = {"order_id": f"ORD-{between(100000, 999999)}",
                    "status": pick(("shipped", "out_for_delivery", "delivered")),
                    "total": between(300, 40000) / 100, "currency": "EUR"}
        elif kind == "news":
            data = {"article_id": between(1, 10**7),
                    "section": pick(("world", "tech", "sport", "culture")),
                    "image": f"https://cdn.example.com/{hex_id(8)}.jpg"}
        elif kind == "bank":
            data = {"transaction_id": self.uuid().lower(),
                    "amount": -between(100, 90000) / 100, "masked_pan": "**** 4242"}
        elif kind == "sport":
            data = {"match_id": between(1, 99999),
                    "score": [between(0, 5), between(0, 5)], "minute": between(1, 90)}
        elif kind == "ride":
            data = {"trip_id": hex_id(10), "eta_seconds": between(30, 900),
                    "location": {"lat": between(-6000000, 6000000) / 100000,
                                 "lon": between(-17000000, 17000000) / 100000}}
        elif kind == "social":
            data = {"post_id": hex_id(14), "actor": self.person(non_ascii),
                    "count": between(1, 500)}
        elif kind == "calendar":
            data = {"event_id": hex_id(12), "starts_at": NOW_EPOCH + between(-WEEK, WEEK),
                    "all_day": r() < 0.1}
        else:
            first = between(0, 4)
            data = {"reminder_id": between(1, 5000), "streak": between(0, 365),
                    "tags": [HABITS[first], HABITS[(first + between(1, 4)) % 5]]}
        if non_ascii and r() < 0.3:
            data["note"] = pick(NON_ASCII_PHRASES)
        if r() < 0.25:
            data["deep_link"] = f"{app['scheme']}://{app['prefix']}/{hex_id(8)}"
        extra = {"custom": data}
        if r() < 0.1:
            extra["trace_id"] = hex_id(16)
        if r() < 0.1:
            extra["schema"] = between(1, 4)
        return extra

    # Payloads --------------------------------------------------------------------------------

    def alert_payload(self, app, thread, non_ascii):
        r, pick, between = self.r, self.pick, self.between
        if r() < 0.05:
            upper = app["name"].upper()
            alert = {"title-loc-key": upper + "_TITLE", "loc-key": upper + "_BODY",
                     "loc-args": [self.person(non_ascii), str(between(1, 99))]}
        else:
            alert = {"title": self.text(self.titles, non_ascii and r() < 0.4, False)}
            if r() < 0.1:
                alert["subtitle"] = pick(self.subtitles)
            alert["body"] = self.text(self.bodies, non_ascii, r() < 0.06)
            if r() < 0.25:
                alert["summary-arg"] = self.person(non_ascii)
                if r() < 0.4:
                    alert["summary-arg-count"] = between(1, 9)
        aps = {"alert": alert, "thread-id": thread, "category": pick(app["categories"]),
               "sound": pick(SOUNDS), "badge": between(0, 99)}
        if r() < 0.7:
            aps["relevance-score"] = between(0, 10) / 10 if r() < 0.5 else between(0, 100) / 100
        level = r()
        aps["interruption-level"] = ("active" if level < 0.85 else
                                     "passive" if level < 0.95 else "time-sensitive")
        if r() < 0.2:
            aps["mutable-content"] = 1
        if r() < 0.05:
            aps["target-content-id"] = self.hex_id(8)
        payload = {"aps": aps}
        payload.update(self.custom(app, non_ascii))
        return payload

    def background_payload(self, app, non_ascii):
        payload = {"aps": {"content-available": 1}}
        payload.update(self.custom(app, non_ascii))
        payload["sync"] = {"reason": self.pick(("new-data", "refresh", "config", "purge")),
                           "cursor": self.hex_id(20), "items": self.between(0, 40)}
        return payload

    def live_activity_payload(self, app, received, non_ascii):
        r, pick, between = self.r, self.pick, self.between
        event = "end" if r() < 0.15 else "update"
        state = {"status": pick(("preparing", "on_the_way", "arriving", "delivered")),
                 "progress": between(0, 100) / 100,
                 "eta": received + between(60, 3600),
                 "driver": self.person(non_ascii),
                 "stops": [{"name": pick(self.stop_names), "done": r() < 0.5}
                           for _ in range(between(1, 3))]}
        aps = {"timestamp": received - between(0, 30), "event": event, "content-state": state}
        if r() < 0.5:
            aps["stale-date"] = received + between(600, 7200)
        if event == "end":
            aps["dismissal-date"] = received + between(0, 4 * 3600)
        if r() < 0.3:
            aps["alert"] = {"title": self.text(self.titles, non_ascii, False),
                            "body": pick(self.bodies)}
            aps["sound"] = "default"
        if r() < 0.5:
            aps["relevance-score"] = pick((0, 25, 50, 75, 100))
        return {"aps": aps, "activity_id": self.uuid().lower()}

    def envelope(self, app, payload, push_type, received):
        r = self.r
        topic = app["topic"]
        if push_type == "liveactivity":
            topic += ".push-type.liveactivity"
        priority = "5" if push_type == "background" or r() < 0.2 else "10"
        headers = {"apns-id": self.uuid(), "apns-push-type": push_type,
                   "apns-priority": priority, "apns-topic": topic}
        expiry = r()
        if expiry < 0.15:
            headers["apns-expiration"] = "0"
        elif expiry < 0.9:
            headers["apns-expiration"] = str(received + self.pick(EXPIRATIONS))
        if push_type == "alert" and r() < 0.4:
            headers["apns-collapse-id"] = f"{app['prefix']}-{self.hex_id(6)}"
        return {"headers": headers, "payload": payload, "received_at": rfc3339(received)}

    def line(self):
        r = self.r
        app = self.apps[bisect.bisect(self.app_cumulative, r() * self.app_cumulative[-1])]
        thread = self.pick(app["threads"])
        received = NOW_EPOCH - self.between(0, WEEK)
        non_ascii = r() < 0.23
        kind = r()
        if kind < 0.10:
            push_type, payload = "background", self.background_payload(app, non_ascii)
        elif kind < 0.15:
            push_type = "liveactivity"
            payload = self.live_activity_payload(app, received, non_ascii)
        else:
            push_type, payload = "alert", self.alert_payload(app, thread, non_ascii)
        if r() < 0.2:
            payload = self.envelope(app, payload, push_type, received)
        text = (self.ascii if non_ascii and r() < 0.15 else self.compact).encode(payload)
        if len(text) >= MAX_PAYLOAD_BYTES // 4 and len(text.encode()) >= MAX_PAYLOAD_BYTES:
            raise AssertionError("payload over 4096 bytes: " + text[:80])
        return text


def rfc3339(epoch):
    days, seconds = divmod(epoch, 86400)
    # Civil date from days since 1970-01-01 (proleptic Gregorian).
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    year = yoe + era * 400 + (1 if month <= 2 else 0)
    hour, rest = divmod(seconds, 3600)
    minute, second = divmod(rest, 60)
    return f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}Z"


# Lines are made in blocks of BLOCK_LINES, each from its own seed, so that blocks can be made
# in parallel and line k still depends only on the seed and k.
_worker = None


def _start_worker(seed):
    global _worker
    _worker = Generator(seed)


def _make_block(job):
    seed, block, count = job
    _worker.rng.seed(seed * 1_000_003 + block)
    lines = [_worker.line() for _ in range(count)]
    return ("\n".join(lines) + "\n").encode("utf-8")


def main(argv):
    args = argv[1:]
    seed = DEFAULT_SEED
    if len(args) == 3 and args[1] == "--seed" and args[2].isdigit():
        seed = int(args[2])
        args = args[:1]
    if len(args) != 1 or not args[0].isdigit():
        sys.stderr.write("usage: gen-payloads.py N [--seed S] > payloads.ndjson\n")
        return 2
    count = int(args[0])
    jobs = [(seed, block, min(BLOCK_LINES, count - start))
            for block, start in enumerate(range(0, count, BLOCK_LINES))]
    out = sys.stdout.buffer
    try:
        if len(jobs) <= 2 or (os.cpu_count() or 1) < 2:
            _start_worker(seed)
            for job in jobs:
                out.write(_make_block(job))
        else:
            with multiprocessing.Pool(os.cpu_count(), _start_worker, (seed,)) as pool:
                for chunk in pool.imap(_make_block, jobs):
                    out.write(chunk)
        out.flush()
    except BrokenPipeError:
        sys.stderr.close()  # `gen-payloads.py N | head` ends quietly
        return 141
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
