#!/usr/bin/env python3
"""notif-show's web page (`--format html`) in a real browser: Debian's Chromium under Selenium.

usage: Tests/Browser/show_page_test.py        (from the repository; make browser-test)

Writes pages with the built notif-show ($NOTIF_BIN_DIR, else .build/debug) from the inputs of
the golden cases, loads each from a file, and checks what only a browser can tell:
  - every body is at most two line-heights tall (CSS line-clamp), and a long one is cut with
    the ellipsis the browser draws (the clamped body differs, pixel for pixel, from the same
    two lines cut without an ellipsis; a short body does not);
  - markup in a payload (<script>, <img onerror>, <iframe>, <a href="javascript:...">) created
    no element, ran no script, and reads as the text it is;
  - the page makes no network request (Chromium's own log of the requests it sends);
  - light and dark follow prefers-color-scheme.

Without Chromium, chromedriver or selenium the tests fail, naming what to install; a developer
who cannot install them runs the rest of the suite with NOTIF_SKIP_BROWSER=1, which skips them
loudly, and which CI (CI set) refuses.
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import chrome  # noqa: E402

FIXTURES = os.path.join(ROOT, "Tests", "EndToEndTests", "Fixtures", "notif-show")
NOW = "2026-11-22T09:00:00Z"


def notif_show(arguments, stdin_path):
    binary = os.path.join(os.environ.get("NOTIF_BIN_DIR") or os.path.join(ROOT, ".build", "debug"),
                          "notif-show")
    with open(stdin_path, "rb") as stdin:
        done = subprocess.run([binary] + arguments, stdin=stdin, capture_output=True,
                              env={"PATH": "/usr/bin:/bin", "TZ": "UTC", "LC_ALL": "C"})
    if done.returncode != 0:
        raise AssertionError(f"notif-show {arguments} exited {done.returncode}: {done.stderr!r}")
    return done.stdout


class PageTests(unittest.TestCase):
    pages = {}

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory(prefix="notif-show-browser-")
        inputs = {
            "feed": (["--categories", os.path.join(FIXTURES, "categories.json")],
                     "morning-18-records.ndjson"),
            "stacks": (["--categories", os.path.join(FIXTURES, "categories.json")],
                       "stacks-with-summaries-and-items.ndjson"),
            "hostile": ([], "hostile-text.ndjson"),
            "cjk": ([], "cjk-emoji-combining-rtl.ndjson"),
        }
        for name, (extra, source) in inputs.items():
            page = notif_show(["--format", "html", "--now", NOW] + extra,
                              os.path.join(FIXTURES, source))
            path = os.path.join(cls.folder.name, f"{name}.html")
            with open(path, "wb") as out:
                out.write(page)
            cls.pages[name] = "file://" + path
        cls.driver = chrome.start(log_network=True)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.folder.cleanup()

    def load(self, name):
        self.driver.get_log("performance")  # drop what earlier pages logged
        self.driver.get(self.pages[name])
        self.driver.execute_script("return document.readyState")

    def bodies(self):
        return self.driver.execute_script("""
            return [...document.querySelectorAll('.body')].map(body => {
              const style = getComputedStyle(body);
              return {height: body.getBoundingClientRect().height,
                      lineHeight: parseFloat(style.lineHeight),
                      clamped: body.scrollHeight > body.clientHeight + 1,
                      text: body.textContent};
            });""")

    def test_every_body_is_at_most_two_lines_tall(self):
        for name in ("feed", "stacks", "hostile", "cjk"):
            self.load(name)
            bodies = self.bodies()
            self.assertTrue(bodies, name)
            for body in bodies:
                self.assertLessEqual(body["height"], 2 * body["lineHeight"] + 0.5,
                                     f"{name}: {body['text'][:40]!r} is {body['height']}px tall")

    def test_a_long_body_is_cut_with_the_browsers_ellipsis(self):
        self.load("hostile")
        long_bodies = [b for b in self.bodies() if b["clamped"]]
        self.assertTrue(long_bodies, "the long body of the hostile page is not clamped")
        self.load("cjk")
        self.assertTrue(any(b["clamped"] for b in self.bodies()), "no CJK body is clamped")
        # The ellipsis is drawn, not in the DOM: compare the clamped body with the same two
        # lines cut by overflow alone. They differ where the browser drew the ellipsis; a body
        # that fits is the same both ways.
        from selenium.webdriver.common.by import By
        drawn = {True: 0, False: 0}
        for name in ("hostile", "cjk", "feed"):
            self.load(name)
            for index, body in enumerate(self.bodies()):
                element = self.driver.find_elements(By.CSS_SELECTOR, ".body")[index]
                clamped = element.screenshot_as_png
                self.driver.execute_script("""
                    const body = arguments[0];
                    const height = body.getBoundingClientRect().height;
                    body.style.display = 'block';
                    body.style.webkitLineClamp = 'unset';
                    body.style.maxHeight = height + 'px';
                    body.style.height = height + 'px';""", element)
                cut = element.screenshot_as_png
                self.driver.execute_script("arguments[0].removeAttribute('style')", element)
                self.assertEqual(clamped != cut, body["clamped"],
                                 f"{name}: body {index} {body['text'][:40]!r}")
                drawn[body["clamped"]] += 1
        self.assertTrue(drawn[True] and drawn[False], drawn)

    def test_injected_markup_is_text_and_creates_no_element(self):
        self.load("hostile")
        found = self.driver.execute_script("""
            return {
              elements: [...document.querySelectorAll(
                'script, img, iframe, a, link, object, embed, form, input, body style')].length,
              styles: document.querySelectorAll('style').length,
              handlers: [...document.querySelectorAll('*')].filter(element =>
                [...element.attributes].some(a => a.name.startsWith('on'))).length,
              titles: [...document.querySelectorAll('.title')].map(t => t.textContent),
              apps: [...document.querySelectorAll('.app')].map(a => a.textContent),
              alerted: window.__alerted === true,
            };""")
        self.assertEqual(found["elements"], 0)
        self.assertEqual(found["styles"], 1)
        self.assertEqual(found["handlers"], 0)
        self.assertFalse(found["alerted"])
        self.assertIn('<img src="https://tracker.example/pixel.png">', found["titles"])
        self.assertIn("\\e[2J\\e[HHello <script>alert(1)</script>", found["titles"])
        self.assertIn('"><img src=x onerror=alert(1)>', found["apps"])
        text = self.driver.execute_script("return document.body.innerText")
        self.assertIn("javascript:alert(document.cookie)", text)
        self.assertNotIn("\u202e", text)
        self.assertNotIn("\x1b", text)

    def test_the_page_makes_no_network_request(self):
        for name in ("feed", "stacks", "hostile", "cjk"):
            self.load(name)
            requests = []
            for entry in self.driver.get_log("performance"):
                message = json.loads(entry["message"])["message"]
                if message["method"] == "Network.requestWillBeSent":
                    requests.append(message["params"]["request"]["url"])
            self.assertEqual([url for url in requests if url != self.pages[name]], [], name)
            self.assertIn(self.pages[name], requests, f"{name}: the log saw no request at all")

    def test_light_and_dark_follow_the_color_scheme(self):
        backgrounds = {}
        for dark in (False, True):
            driver = chrome.start(dark=dark)
            try:
                driver.get(self.pages["feed"])
                backgrounds[dark] = driver.execute_script(
                    "return getComputedStyle(document.body).backgroundColor")
            finally:
                driver.quit()
        self.assertEqual(backgrounds[False], "rgb(233, 230, 239)")
        self.assertEqual(backgrounds[True], "rgb(17, 17, 20)")


def main():
    lacking = chrome.missing()
    if lacking:
        if os.environ.get("NOTIF_SKIP_BROWSER") == "1" and not os.environ.get("CI"):
            print(f"browser-test: SKIPPED, NOTIF_SKIP_BROWSER=1 and no {lacking}: "
                  "the web page is not tested", file=sys.stderr)
            return 0
        print(f"browser-test: missing {lacking}; install them (make check-deps), or outside CI "
              "set NOTIF_SKIP_BROWSER=1 to skip these tests", file=sys.stderr)
        return 1
    result = unittest.main(module=__name__, argv=[sys.argv[0], "-v"], exit=False).result
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
