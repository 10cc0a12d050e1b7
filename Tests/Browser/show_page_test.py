#!/usr/bin/env python3
"""notif-show's web page (`--to html`) in a real browser: Debian's Chromium under Selenium.

usage: Tests/Browser/show_page_test.py        (from the repository; make browser-test)

Writes pages with the built notif-show ($NOTIF_BIN_DIR, else .build/debug) from the inputs of
the golden cases and from the pipeline of `make demo`, loads each from a file, and checks what
only a browser can tell:
  - every body is at most two line-heights tall (CSS line-clamp), and a long one is cut with
    the ellipsis the browser draws (the clamped body differs, pixel for pixel, from the same
    two lines cut without an ellipsis; a short body does not);
  - markup in a payload or an apps file (<script>, <img onerror>, <iframe>, <a
    href="javascript:...">) created no element, ran no script, and reads as the text it is;
  - the page makes no network request (Chromium's own log of the requests it sends), icons
    included;
  - light and dark follow prefers-color-scheme;
  - axe-core 4 (the axe.min.js of PyPI's axe-playwright-python) finds no violation of the WCAG
    2.0, 2.1 and 2.2 A and AA rules, contrast included, on the demo page and the hostile ones,
    light and dark, 390 and 1280 pixels wide, with every stack closed and open; a violation
    fails the test and is printed;
  - every stack opens from the keyboard (Tab to its summary line, Enter and Space), and the
    focused summary line has a visible outline;
  - a closed stack shows two cards peeking behind it in both schemes, an open one does not,
    and the items an open stack shows are visible cards;
  - a card whose record names a safe URL is a link with rel="noopener noreferrer" to that URL,
    and no other element is a link (javascript:, data: and app schemes no option names);
  - the list fills a phone's width and, on a desktop, a wider column, with no sideways scroll;
  - the page for a mail (`--to email`, of digest objects, stacks, links and hostile text) has no
    script, image or details, one style sheet in its head that holds only the dark scheme
    (prefers-color-scheme), every element of its body styled inline in the light one, a
    column of 600 pixels at most and no sideways scroll; it turns dark where the reader asks;
    axe-core and the request log check it as they check the web page.

Without Chromium, chromedriver, selenium or axe-core the tests fail, naming what to install; a
developer who cannot install them runs the rest of the suite with NOTIF_SKIP_BROWSER=1, which
skips them loudly, and which CI (CI set) refuses.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import chrome  # noqa: E402

FIXTURES = os.path.join(ROOT, "Tests", "EndToEndTests", "Fixtures", "notif-show")
EXAMPLES = os.path.join(ROOT, "examples")
NOW = "2026-11-22T09:00:00Z"
ENVIRONMENT = {"PATH": "/usr/bin:/bin", "TZ": "UTC", "LC_ALL": "C"}

# What axe-core checks: every WCAG 2.0, 2.1 and 2.2 rule of levels A and AA.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
WIDTHS = (390, 1280)


def binary(tool):
    return os.path.join(os.environ.get("NOTIF_BIN_DIR") or os.path.join(ROOT, ".build", "debug"),
                        tool)


def notif_show(arguments, stdin_path):
    with open(stdin_path, "rb") as stdin:
        done = subprocess.run([binary("notif-show")] + arguments, stdin=stdin,
                              capture_output=True, env=ENVIRONMENT)
    if done.returncode != 0:
        raise AssertionError(f"notif-show {arguments} exited {done.returncode}: {done.stderr!r}")
    return done.stdout


def demo_page(extra=()):
    """The page `make demo` writes: the bundled pushes parsed, grouped (--item-limit 3), summarized
    and shown, with `extra` arguments for notif-show."""
    steps = [
        ["notif-parse", "--now", NOW, "group-chat.ndjson", "pushes.ndjson"],
        ["notif-group", "--item-limit", "3"],
        ["notif-summarize", "--categories", "categories.json"],
        ["notif-show", "--to", "html", "--now", NOW, "--categories", "categories.json",
         *extra],
    ]
    data = b""
    for step in steps:
        done = subprocess.run([binary(step[0])] + step[1:], input=data, capture_output=True,
                              env=ENVIRONMENT, cwd=EXAMPLES)
        if done.returncode != 0:
            raise AssertionError(f"{step} exited {done.returncode}: {done.stderr!r}")
        data = done.stdout
    return data


def contrast(a, b):
    """The WCAG contrast ratio of two `rgb(r, g, b)` colors."""
    def luminance(color):
        channels = [int(c) / 255 for c in re.findall(r"[0-9]+", color)[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


class PageTests(unittest.TestCase):
    pages = {}

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory(prefix="notif-show-browser-")
        categories = ["--categories", os.path.join(FIXTURES, "categories.json")]
        pages = {
            "feed": notif_show(["--to", "html", "--now", NOW] + categories,
                               os.path.join(FIXTURES, "morning-18-records.ndjson")),
            "stacks": notif_show(["--to", "html", "--now", NOW] + categories,
                                 os.path.join(FIXTURES, "stacks-with-summaries-and-items.ndjson")),
            "hostile": notif_show(["--to", "html", "--now", NOW],
                                  os.path.join(FIXTURES, "hostile-text.ndjson")),
            "cjk": notif_show(["--to", "html", "--now", NOW],
                              os.path.join(FIXTURES, "cjk-emoji-combining-rtl.ndjson")),
            "counts": notif_show(["--to", "html", "--now", NOW],
                                 os.path.join(FIXTURES, "stacks-counts.ndjson")),
            "hostile-apps": notif_show(
                ["--to", "html", "--now", NOW, "--apps",
                 os.path.join(FIXTURES, "apps-hostile-names.json")],
                os.path.join(FIXTURES, "apps-hostile-records.ndjson")),
            "icons": notif_show(
                ["--to", "html", "--now", NOW, "--apps",
                 os.path.join(FIXTURES, "apps", "apps.json")],
                os.path.join(FIXTURES, "apps-six-apps-records.ndjson")),
            "digests": notif_show(["--to", "html", "--now", NOW],
                                  os.path.join(FIXTURES, "digests.ndjson")),
            "email-digests": notif_show(["--to", "email", "--now", NOW],
                                        os.path.join(FIXTURES, "digests.ndjson")),
            "email-hostile": notif_show(["--to", "email", "--now", NOW],
                                        os.path.join(FIXTURES, "hostile-text.ndjson")),
            "email-stacks": notif_show(["--to", "email", "--now", NOW] + categories,
                                       os.path.join(FIXTURES,
                                                    "stacks-with-summaries-and-items.ndjson")),
            "links": notif_show(["--to", "html", "--now", NOW, "--tz", "Europe/Berlin",
                                 "--link-key", "url", "--limit", "6"],
                                os.path.join(FIXTURES, "links-and-days.ndjson")),
            "email-links": notif_show(["--to", "email", "--now", NOW, "--link-key", "url"],
                                      os.path.join(FIXTURES, "links-and-days.ndjson")),
            "demo": demo_page(),
            "demo-apps": demo_page(["--apps", "apps.json"]),
        }
        for name, page in pages.items():
            path = os.path.join(cls.folder.name, f"{name}.html")
            with open(path, "wb") as out:
                out.write(page)
            cls.pages[name] = "file://" + path
        with open(chrome.axe_script_path(), encoding="utf-8") as script:
            cls.axe_script = script.read()
        cls.driver = chrome.start(log_network=True)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.folder.cleanup()

    def load(self, name, width=480, dark=False):
        chrome.set_view(self.driver, width, dark=dark)
        self.driver.get_log("performance")  # drop what earlier pages logged
        self.driver.get(self.pages[name])
        self.driver.execute_script("return document.readyState")

    def open_every_stack(self):
        self.driver.execute_script(
            "document.querySelectorAll('details').forEach(stack => stack.open = true)")

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

    def test_markup_in_an_apps_file_is_text_and_creates_no_element(self):
        self.load("hostile-apps")
        found = self.driver.execute_script("""
            return {
              elements: [...document.querySelectorAll(
                'script, img, iframe, a, b, link, object, embed, form, input, body style')].length,
              styles: document.querySelectorAll('style').length,
              handlers: [...document.querySelectorAll('*')].filter(element =>
                [...element.attributes].some(a => a.name.startsWith('on'))).length,
              apps: [...document.querySelectorAll('.app')].map(a => a.textContent),
              titles: [...document.querySelectorAll('.app')].map(a => a.title),
              hidden: getComputedStyle(document.body).display,
            };""")
        self.assertEqual(found["elements"], 0)
        self.assertEqual(found["styles"], 1)
        self.assertEqual(found["handlers"], 0)
        self.assertEqual(found["hidden"], "block")
        self.assertIn("\\e[2J\\e]8;;https://evil.example/\\e\\Chat</span><script>alert(1)"
                      "</script>\\u{202E}ppa", found["apps"])
        self.assertIn('"><img src=x onerror=alert(1)> Food\\u{200B}', found["apps"])
        self.assertIn("<style>body{display:none}</style>", found["apps"])
        self.assertIn('"><b>x</b>', found["titles"])

    def test_the_page_makes_no_network_request(self):
        for name in ("feed", "stacks", "hostile", "cjk", "icons", "demo-apps", "hostile-apps",
                     "digests", "email-digests", "email-hostile", "email-stacks", "links",
                     "email-links"):
            self.load(name)
            requests = []
            for entry in self.driver.get_log("performance"):
                message = json.loads(entry["message"])["message"]
                if message["method"] == "Network.requestWillBeSent":
                    requests.append(message["params"]["request"]["url"])
            # An icon's data: URI is logged as a request, but its bytes are in the page.
            source = self.driver.page_source
            self.assertEqual([url for url in requests if url != self.pages[name] and not
                              (url.startswith("data:image/") and url in source)], [], name)
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
        self.assertEqual(backgrounds[False], "rgb(242, 242, 247)")
        self.assertEqual(backgrounds[True], "rgb(18, 18, 20)")

    def axe(self):
        """The violations axe-core finds on the page loaded, as lines to print."""
        self.driver.execute_script(self.axe_script)
        result = self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}})
              .then(result => done({version: axe.version, violations: result.violations.map(
                rule => ({id: rule.id, impact: rule.impact, help: rule.help,
                          nodes: rule.nodes.map(node => ({target: node.target.join(' '),
                            summary: node.failureSummary}))}))}))
              .catch(error => done({error: String(error)}));""", AXE_TAGS)
        self.assertNotIn("error", result, result.get("error"))
        self.assertTrue(result["version"].startswith("4."), result["version"])
        lines = []
        for rule in result["violations"]:
            for node in rule["nodes"]:
                summary = " ".join(node["summary"].split())
                lines.append(f"{rule['id']} ({rule['impact']}): {node['target']}: {summary}")
        return lines

    def test_axe_finds_no_wcag_a_or_aa_violation(self):
        found = []
        audits = 0
        for dark in (False, True):
            for width in WIDTHS:
                for name in ("demo", "demo-apps", "hostile", "hostile-apps", "counts", "cjk",
                             "stacks", "digests", "links", "email-digests", "email-hostile",
                             "email-stacks", "email-links"):
                    self.load(name, width=width, dark=dark)
                    for state in ("closed", "open"):
                        if state == "open":
                            self.open_every_stack()
                        where = f"{name}, {'dark' if dark else 'light'}, {width}px, {state}"
                        found += [f"{where}: {line}" for line in self.axe()]
                        audits += 1
        print(f"\naxe-core: {audits} audits, {len(found)} violations", file=sys.stderr)
        for line in found:
            print(f"  {line}", file=sys.stderr)
        self.assertEqual(found, [], f"{len(found)} violations of WCAG A and AA (printed above)")

    def test_the_page_for_a_mail_is_styled_inline_and_fits_a_phone(self):
        # What every mail client keeps: no script, image or details; every element of the body
        # styled inline; tables for the layout; no sideways scroll on a phone, and the column no
        # wider than 600 pixels on a desktop. The one style sheet, in the head, only recolors
        # for the dark scheme: a client that drops it shows the light page.
        for name in ("email-digests", "email-hostile", "email-stacks", "email-links"):
            for width in WIDTHS:
                self.load(name, width=width)
                found = self.driver.execute_script("""
                    const body = document.body;
                    const unstyled = [...body.querySelectorAll('*')].filter(element =>
                      !['BR', 'TABLE', 'TBODY', 'TR'].includes(element.tagName) &&
                      !element.hasAttribute('style')).map(element => element.tagName);
                    const card = document.querySelector('td[align=center] > table');
                    const rules = [...document.styleSheets].flatMap(sheet =>
                      [...sheet.cssRules].map(rule => rule.conditionText || rule.cssText));
                    return {styles: document.querySelectorAll('body style, link').length,
                            scripts: document.querySelectorAll('script').length,
                            sheets: rules,
                            images: document.querySelectorAll('img, details').length,
                            tables: document.querySelectorAll('table').length,
                            unstyled: unstyled,
                            overflow: document.documentElement.scrollWidth - window.innerWidth,
                            column: card.getBoundingClientRect().width};""")
                where = f"{name}, {width}px"
                self.assertEqual((found["styles"], found["scripts"], found["images"]), (0, 0, 0),
                                 where)
                self.assertEqual(found["sheets"], ["(prefers-color-scheme: dark)"], where)
                self.assertGreater(found["tables"], 1, where)
                self.assertEqual(found["unstyled"], [], where)
                self.assertLessEqual(found["overflow"], 0, where)
                self.assertLessEqual(found["column"], 600, where)
        # A digest shows its text, its window and the records it lists, all of them open.
        self.load("email-digests")
        text = self.driver.execute_script("return document.body.innerText")
        self.assertIn("Fay and 5 others liked your photo", text)
        self.assertIn("2026-11-22 00:00 to 2026-11-23 00:00 UTC", text)
        self.assertIn("4 more notifications", text)
        self.assertIn("Bob commented on your photo.", text)
        # Light inline, dark where the reader's client asks for it.
        colors = {}
        for dark in (False, True):
            self.load("email-links", dark=dark)
            colors[dark] = self.driver.execute_script("""
                const card = document.querySelector('table.card');
                const link = document.querySelector('a');
                return {page: getComputedStyle(document.body).backgroundColor,
                        card: getComputedStyle(card).backgroundColor,
                        text: getComputedStyle(card.querySelector('td')).color,
                        link: getComputedStyle(link).color};""")
        self.assertEqual(colors[False]["page"], "rgb(242, 242, 247)")
        self.assertEqual(colors[True]["page"], "rgb(18, 18, 20)")
        for dark in (False, True):
            found = colors[dark]
            self.assertGreaterEqual(contrast(found["text"], found["card"]), 4.5, found)
            self.assertGreaterEqual(contrast(found["link"], found["card"]), 4.5, found)

    def test_every_stack_opens_from_the_keyboard_with_a_visible_focus(self):
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys

        def press(key):
            ActionChains(self.driver).send_keys(key).perform()

        def focused():
            return self.driver.execute_script("""
                const element = document.activeElement;
                const style = getComputedStyle(element);
                const summaries = [...document.querySelectorAll('details > summary')];
                return {tag: element.tagName, index: summaries.indexOf(element),
                        outline: style.outlineStyle, outlineWidth: parseFloat(style.outlineWidth),
                        open: element.tagName === 'SUMMARY' && element.parentElement.open};""")

        for name in ("demo", "stacks", "counts"):
            self.load(name)
            count = self.driver.execute_script(
                "return document.querySelectorAll('details > summary').length")
            self.assertGreater(count, 0, name)
            unfocused = self.driver.execute_script(
                "return getComputedStyle(document.querySelector('summary')).outlineStyle")
            self.assertEqual(unfocused, "none", f"{name}: an outline without focus")
            for index in range(count):
                press(Keys.TAB)
                state = focused()
                self.assertEqual((state["tag"], state["index"]), ("SUMMARY", index),
                                 f"{name}: Tab {index + 1} reached {state}")
                self.assertTrue(state["outline"] != "none" and state["outlineWidth"] >= 2,
                                f"{name}: summary {index} has no visible focus: {state}")
                self.assertFalse(state["open"], f"{name}: summary {index} opened by itself")
                press(Keys.ENTER)
                self.assertTrue(focused()["open"], f"{name}: Enter did not open stack {index}")
                press(Keys.SPACE)
                self.assertFalse(focused()["open"], f"{name}: Space did not close stack {index}")
                press(Keys.SPACE)
                self.assertTrue(focused()["open"], f"{name}: Space did not open stack {index}")

    def layers(self):
        """The two cards that peek behind each closed stack's leading card."""
        return self.driver.execute_script("""
            return [...document.querySelectorAll('.stacked > .leading')].map(card =>
              ['::before', '::after'].map(which => {
                const style = getComputedStyle(card, which);
                return {display: style.display, color: style.backgroundColor,
                        below: -parseFloat(style.bottom), inset: parseFloat(style.left)};
              }));""")

    def test_a_closed_stack_shows_two_cards_peeking_behind_it_in_both_schemes(self):
        for dark in (False, True):
            self.load("demo", dark=dark)
            page = self.driver.execute_script(
                "return getComputedStyle(document.body).backgroundColor")
            stacks = self.layers()
            self.assertTrue(stacks)
            for first, second in stacks:
                for layer in (first, second):
                    self.assertNotEqual(layer["display"], "none")
                    self.assertGreaterEqual(contrast(layer["color"], page), 1.1,
                                            f"{'dark' if dark else 'light'}: the layer "
                                            f"{layer} barely differs from the page {page}")
                # Each layer peeks out further below, and is narrower, than the one before.
                self.assertGreater(first["below"], 0)
                self.assertGreater(second["below"], first["below"])
                self.assertGreater(second["inset"], first["inset"])
            self.open_every_stack()
            for first, second in self.layers():
                self.assertEqual((first["display"], second["display"]), ("none", "none"))

    def test_an_open_stack_shows_its_items_as_cards(self):
        self.load("demo")
        closed = self.driver.execute_script("""
            return [...document.querySelectorAll('.stack > details > .item')]
              .map(item => item.checkVisibility({visibilityProperty: true}));""")
        self.assertTrue(closed)
        self.assertEqual(set(closed), {False})
        self.driver.execute_script(
            "document.querySelector('.stack > details > summary').click()")
        shown = self.driver.execute_script("""
            const stack = document.querySelector('.stack > details');
            return {items: [...stack.querySelectorAll(':scope > .item')].map(item => ({
                      height: item.getBoundingClientRect().height,
                      visible: item.checkVisibility({visibilityProperty: true}),
                      background: getComputedStyle(item).backgroundColor})),
                    control: stack.querySelector('summary').innerText,
                    page: getComputedStyle(document.body).backgroundColor};""")
        self.assertTrue(shown["items"])
        self.assertEqual(shown["control"].strip(), "Show less")
        for item in shown["items"]:
            self.assertTrue(item["visible"] and item["height"] > 40, item)
            self.assertNotEqual(item["background"], shown["page"], item)

    def test_a_linked_card_is_a_safe_link_and_nothing_else_is(self):
        for name in ("links", "email-links"):
            self.load(name)
            links = self.driver.execute_script("""
                return [...document.querySelectorAll('a')].map(a => ({
                  href: a.getAttribute('href'), rel: a.rel, text: a.innerText}));""")
            self.assertEqual([link["href"] for link in links],
                             ["https://example.com/orders/1", "https://news.example/today",
                              'https://bank.example@evil.example/login?a=1&b="2"'], name)
            for link in links:
                self.assertEqual(link["rel"], "noopener noreferrer", link)
                self.assertTrue(link["text"].strip(), link)
            # The web page says where each goes: the host, not a user name posing as one.
            if name == "links":
                self.assertIn("Opens evil.example", links[2]["text"])
            text = self.driver.execute_script("return document.body.innerText")
            for unlinked in ("Click me", "Alice"):
                self.assertIn(unlinked, text)

    def test_the_list_uses_the_width_of_a_phone_and_of_a_desktop(self):
        measured = {}
        for width in WIDTHS:
            self.load("demo-apps", width=width)
            measured[width] = self.driver.execute_script("""
                return {main: document.querySelector('main').getBoundingClientRect().width,
                        icon: document.querySelector('.icon').getBoundingClientRect().width,
                        scroll: document.documentElement.scrollWidth,
                        viewport: window.innerWidth};""")
            self.assertLessEqual(measured[width]["scroll"], measured[width]["viewport"],
                                 f"{width}px: the page scrolls sideways: {measured[width]}")
        self.assertGreaterEqual(measured[390]["main"], 390 - 2 * 12)
        self.assertEqual(measured[1280]["main"], 720)
        self.assertGreater(measured[1280]["icon"], measured[390]["icon"])

    def test_icons_are_embedded_and_each_app_has_a_face(self):
        self.load("demo-apps")
        icons = self.driver.execute_script("""
            return [...document.querySelectorAll('.icon')].map(icon => ({
              image: getComputedStyle(icon).backgroundImage, text: icon.textContent,
              app: icon.parentElement.querySelector('.app').textContent,
              width: icon.getBoundingClientRect().width}));""")
        self.assertTrue(icons)
        for icon in icons:
            self.assertGreater(icon["width"], 0)
            if icon["image"] != "none":
                self.assertTrue(icon["image"].startswith('url("data:image/'), icon)
            else:
                self.assertEqual(icon["text"], icon["app"][0], icon)
        self.assertIn("Chat", {icon["app"] for icon in icons if icon["image"] != "none"})
        self.assertIn("Morning News", {icon["app"] for icon in icons if icon["image"] == "none"})


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
