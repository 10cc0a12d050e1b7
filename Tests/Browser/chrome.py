"""Debian's Chromium under Selenium, headless, for the tests of notif-show's web page and for
the README's screenshots (scripts/screenshot-page.py).

Only the browser and driver Debian installs are used (`apt-get install chromium
chromium-driver`, `pip install selenium`), and axe-core as PyPI's axe-playwright-python wheel
ships it (`pip install --no-deps axe-playwright-python`: its `axe.min.js`, injected into the
page; Playwright itself is not needed): nothing is downloaded. `missing()` says what is not
installed, for the caller to fail or, outside CI and when asked, skip.
"""

import importlib.util
import os
import shutil

CHROMIUM = os.environ.get("NOTIF_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("NOTIF_CHROMEDRIVER", "/usr/bin/chromedriver")


def missing(axe=True):
    """What the browser tests need and this machine lacks, as one line; None when all is there.
    Without `axe`, axe-core is not asked for (a screenshot needs none)."""
    lacking = []
    try:
        import selenium  # noqa: F401
    except ImportError:
        lacking.append("selenium (pip install selenium)")
    if axe and axe_script_path() is None:
        lacking.append("axe-core (pip install --no-deps axe-playwright-python)")
    if not (os.access(CHROMIUM, os.X_OK) or shutil.which(CHROMIUM)):
        lacking.append(f"{CHROMIUM} (apt-get install chromium)")
    if not (os.access(CHROMEDRIVER, os.X_OK) or shutil.which(CHROMEDRIVER)):
        lacking.append(f"{CHROMEDRIVER} (apt-get install chromium-driver)")
    return ", ".join(lacking) or None


def start(width=480, height=900, dark=False, log_network=False):
    """A headless Chromium of the given window size, light or dark."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--hide-scrollbars", "--force-device-scale-factor=1",
                     f"--window-size={width},{height}", "--lang=en-US",
                     "--no-first-run", "--disable-extensions", "--disable-background-networking",
                     "--disable-component-update", "--disable-default-apps", "--disable-sync"):
        options.add_argument(argument)
    if log_network:
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})
    return driver


def axe_script_path():
    """The axe.min.js of the installed axe-playwright-python, found without importing it (its
    package imports Playwright); None when it is not installed."""
    spec = importlib.util.find_spec("axe_playwright_python")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = os.path.join(folder, "axe.min.js")
        if os.path.exists(path):
            return path
    return None


def set_view(driver, width, height=900, dark=None):
    """The page's viewport, exactly `width` by `height` CSS pixels, and its color scheme."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    if dark is not None:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})
