#!/usr/bin/env python3
"""Take screenshots of a page of notif-show in Debian's Chromium, the browser the page's tests
run in (Tests/Browser/chrome.py), for the README.

usage: scripts/screenshot-page.py PAGE.html OUT.png [--dark] [--width PIXELS] [--open]

With neither --dark nor --width it takes the four pictures the README shows, each as tall as
the whole page: OUT.png (light, 390 pixels wide, a phone), OUT-dark.png (dark, 390),
OUT-wide.png (light, 1280, a desktop) and OUT-wide-dark.png (dark, 1280). With either, it
takes the one picture they ask for (light, 480 pixels wide unless they say otherwise) as
OUT.png. The stacks are closed; with --open, the first stack and the actions of its leading
card are open, as a click on each opens them (the page itself has no script: the browser
sets `open` on the two `details` elements). `make screenshot` takes the README's, of the
pages `make demo` writes.
"""

import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Browser"))
import chrome  # noqa: E402

# The README's pictures: (suffix of the file name, dark, width).
README_SHOTS = [("", False, 390), ("-dark", True, 390), ("-wide", False, 1280),
                ("-wide-dark", True, 1280)]


# What --open opens: the first stack that opens, and the actions of its leading card.
OPEN_FIRST_STACK = """
    const stack = document.querySelector('.stack > details');
    if (stack) {
      stack.open = true;
      const actions = stack.parentElement.querySelector('.leading details.more');
      if (actions) actions.open = true;
    }"""


def shrink(path):
    """The picture in a palette of 256 colors, which keeps text sharp at a third of the bytes,
    where Pillow is installed; else as the browser wrote it."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                                              dither=Image.Dither.NONE)
    small.save(path, optimize=True)


def shoot(driver, page, out, dark, width, opened=False):
    """One picture of the whole page, `width` CSS pixels wide, at one device pixel each."""
    # A short viewport first, so that the page's height is its content's, not the window's.
    chrome.set_view(driver, width, height=100, dark=dark)
    driver.get("file://" + os.path.abspath(page))
    if opened:
        driver.execute_script(OPEN_FIRST_STACK)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    chrome.set_view(driver, width, height=height)
    driver.save_screenshot(out)
    shrink(out)
    print(f"screenshot-page: {out}, {width} pixels wide, {'dark' if dark else 'light'}"
          f"{', a stack open' if opened else ''}")


def main():
    arguments = sys.argv[1:]
    dark = "--dark" in arguments
    opened = "--open" in arguments
    arguments = [a for a in arguments if a not in ("--dark", "--open")]
    width = None
    if "--width" in arguments:
        at = arguments.index("--width")
        width = int(arguments[at + 1])
        del arguments[at:at + 2]
    if len(arguments) != 2:
        sys.exit("usage: scripts/screenshot-page.py PAGE.html OUT.png [--dark] [--width PIXELS]"
                 " [--open]")
    page, out = arguments
    lacking = chrome.missing(axe=False)
    if lacking:
        sys.exit(f"screenshot-page: missing {lacking}")
    if dark or width:
        shots = [("", dark, width or 480)]
    else:
        shots = README_SHOTS
    stem, extension = os.path.splitext(out)
    driver = chrome.start()
    try:
        for suffix, shot_dark, shot_width in shots:
            shoot(driver, page, stem + suffix + extension, shot_dark, shot_width, opened)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
