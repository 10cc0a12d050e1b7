#!/usr/bin/env python3
"""Take a screenshot of a page of notif-show in Debian's Chromium, the browser the page's tests
run in (Tests/Browser/chrome.py), for the README.

usage: scripts/screenshot-page.py PAGE.html OUT.png [--dark] [--width PIXELS]

The window is as tall as the page, so the whole list is in the picture. `make screenshot`
takes the one the README shows, of the page `make demo` writes.
"""

import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Browser"))
import chrome  # noqa: E402


def main():
    arguments = sys.argv[1:]
    dark = "--dark" in arguments
    arguments = [a for a in arguments if a != "--dark"]
    width = 480
    if "--width" in arguments:
        at = arguments.index("--width")
        width = int(arguments[at + 1])
        del arguments[at:at + 2]
    if len(arguments) != 2:
        sys.exit("usage: scripts/screenshot-page.py PAGE.html OUT.png [--dark] [--width PIXELS]")
    page, out = arguments
    lacking = chrome.missing()
    if lacking:
        sys.exit(f"screenshot-page: missing {lacking}")
    driver = chrome.start(width=width, dark=dark)
    try:
        driver.get("file://" + os.path.abspath(page))
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(width, height + 140)  # the window's frame, in headless mode too
        driver.get("file://" + os.path.abspath(page))
        driver.save_screenshot(out)
    finally:
        driver.quit()
    print(f"screenshot-page: {out}, {width} pixels wide")


if __name__ == "__main__":
    main()
