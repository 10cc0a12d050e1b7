#!/usr/bin/env python3
"""Writes COUNT push service answers, one a line, to stdout, in the shapes notif-responses
reads (notif(5), Responses): APNs (half of them), FCM HTTP v1, Web Push, Expo tickets and Amazon
SNS delivery status lines, with the mix of outcomes a large send sees (most delivered, some
tokens gone, some rate limits and server errors, a few payload and credential errors).

usage: bench/gen-responses.py COUNT

Deterministic (a fixed seed) and prefix-stable: the first N lines of a bigger file are the file
of N lines.
"""

import json
import random
import sys

APNS = [(200, None)] * 80 + [
    (410, "Unregistered"), (410, "Unregistered"), (400, "BadDeviceToken"),
    (400, "DeviceTokenNotForTopic"), (413, "PayloadTooLarge"), (429, "TooManyRequests"),
    (503, "ServiceUnavailable"), (500, "InternalServerError"), (403, "ExpiredProviderToken"),
    (400, "BadExpirationDate"),
]
FCM = [(200, None)] * 80 + [
    (404, "UNREGISTERED"), (404, "UNREGISTERED"), (400, "INVALID_ARGUMENT"),
    (429, "QUOTA_EXCEEDED"), (503, "UNAVAILABLE"), (500, "INTERNAL"),
    (403, "SENDER_ID_MISMATCH"), (401, "THIRD_PARTY_AUTH_ERROR"),
]
WEBPUSH = [201] * 85 + [404, 410, 410, 413, 429, 500, 503, 400, 403]
EXPO = [None] * 85 + ["DeviceNotRegistered", "DeviceNotRegistered", "MessageTooBig",
                      "MessageRateExceeded", "InvalidCredentials", "MismatchSenderId"]


def answer(rng, n):
    kind = rng.random()
    token = "%064x" % rng.getrandbits(256)
    request = "req-%d" % n
    if kind < 0.5:
        status, reason = rng.choice(APNS)
        line = {"token": token, "request_id": request, "status": status,
                "apns-id": "%08X-0000-4000-8000-%012X" % (n & 0xFFFFFFFF, n)}
        if reason:
            body = {"reason": reason}
            if status == 410:
                body["timestamp"] = 1764140000000 + n
            line["body"] = body
        return line
    if kind < 0.75:
        status, code = rng.choice(FCM)
        line = {"token": token[:40], "request_id": request, "status": status}
        if code is None:
            line["body"] = {"name": "projects/demo/messages/0:%d" % n}
        else:
            line["body"] = {"error": {"code": status, "message": "demo", "status": "X",
                                      "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError",
                                                   "errorCode": code}]}}
        return line
    if kind < 0.87:
        status = rng.choice(WEBPUSH)
        line = {"endpoint": "https://fcm.googleapis.com/fcm/send/" + token[:48],
                "request_id": request, "status": status}
        if status == 429:
            line["headers"] = {"Retry-After": "60"}
        return line
    if kind < 0.95:
        error = rng.choice(EXPO)
        if error is None:
            return {"request_id": request, "status": "ok", "id": "%032x" % rng.getrandbits(128)}
        return {"request_id": request, "status": "error", "message": "demo",
                "details": {"error": error, "expoPushToken": "ExponentPushToken[%s]" % token[:22]}}
    status, reason = rng.choice(APNS)
    provider = json.dumps({"reason": reason}) if reason else "{}"
    return {"notification": {"messageId": "m-%d" % n, "timestamp": "2026-11-26 09:00:00.000"},
            "delivery": {"deliveryId": "d-%d" % n,
                         "destination": "arn:aws:sns:us-east-1:111122223333:endpoint/APNS/app/%d" % n,
                         "providerResponse": provider, "dwellTimeMs": 60, "attempts": 1,
                         "token": token, "statusCode": status},
            "status": "SUCCESS" if status == 200 else "FAILURE"}


def main():
    if len(sys.argv) != 2 or not sys.argv[1].isdigit():
        sys.stderr.write("usage: bench/gen-responses.py COUNT\n")
        sys.exit(2)
    rng = random.Random(20261126)
    out = sys.stdout
    for n in range(int(sys.argv[1])):
        out.write(json.dumps(answer(rng, n), separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
