"""The base of the browser tests (test_browser.py, test_play_here.py): one rig (browser_rig.py) and one
browser (browsers.py) per engine and size, the page loaded fresh for each test, its requests checked
(nothing to another origin, no CSP break, no script error), the helpers the tests share. Every wait is a
hang guard (15 s), never a speed check."""

import json
import os
import sys
import time
import unittest
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import browser_rig  # noqa: E402
import browsers  # noqa: E402

try:
    from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:  # reported by setUpClass
    pass

GUARD = 15                 # seconds: a hang guard only
CATALOG = json.loads((browser_rig.FIXTURES / "catalog.json").read_text())["results"]
BY_TITLE = {t["trackName"]: t for t in CATALOG}
TONE = {t["trackId"]: int(t["previewUrl"].split("tone-")[1].split(".")[0])
        for t in CATALOG if "previewUrl" in t and "/tone-" in t["previewUrl"] and t["previewUrl"].endswith(".m4a")}
# A non-loopback address of the tests' own (Web/Tests/run, as root): plain http there is not a secure context.
PUBLIC = os.environ.get("PREVIEWD_WEB_TEST_ADDRESS")

# WebKit has no log of the page's WebSocket frames to read: the page's own socket is watched instead
# (`previewd.link` is the page's protocol client, app.js; every send goes through WebSocket.prototype.send).
WATCH_FRAMES = """
if (!window.__sent) {
  window.__sent = []; window.__received = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) { try { window.__sent.push(JSON.parse(data)); } catch (e) {} return send.call(this, data); };
}
if (previewd.link.ws && !previewd.link.ws.__watched) {
  previewd.link.ws.__watched = true;
  previewd.link.ws.addEventListener('message', (m) => { try { window.__received.push(JSON.parse(m.data)); } catch (e) {} });
}
"""


def matching(term):
    """The catalog's tracks the stand-in answers for `term` (every word in artist, title or album)."""
    words = term.lower().split()
    return [t for t in CATALOG
            if all(w in " ".join(filter(None, [t.get("artistName"), t.get("trackName"), t.get("collectionName")])).lower()
                   for w in words)]


class PageCase(unittest.TestCase):
    """One rig and one browser per engine and screen size; each test starts from an empty queue and a fresh page.
    The tests are its subclasses' (test_browser.py, test_play_here.py)."""

    WIDTH = HEIGHT = None
    ENGINE = "chromium"

    @classmethod
    def setUpClass(cls):
        why = browsers.missing(cls.ENGINE)
        if why:
            raise unittest.SkipTest(why)
        cls.size = f"{cls.WIDTH}x{cls.HEIGHT}"
        cls.suffix = "" if cls.ENGINE == "chromium" else f"-{cls.ENGINE}"
        cls.artifacts = browser_rig.artifacts_dir()
        cls.started = time.monotonic()
        cls.rig = browser_rig.Rig(cls.fixtures())
        cls.xvfb = None
        try:
            cls.start_browser()
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def fixtures(cls):
        """The stand-in's folder (catalog.json, previews/, artwork/) for the class; None: the committed one."""
        return None

    @classmethod
    def start_browser(cls, audible=False):
        """The engine's browser at the class's size; `audible`: its sound is not muted."""
        if cls.ENGINE == "webkit":
            cls.xvfb = browsers.Xvfb(cls.rig.dir)
            cls.driver_log = Path(cls.rig.dir) / "webkitwebdriver.log"
            cls.driver = browsers.start_webkit(cls.WIDTH, cls.HEIGHT, cls.xvfb.display, cls.driver_log)
        else:
            cls.driver = browsers.start_chromium(cls.WIDTH, cls.HEIGHT, audible=audible)

    @classmethod
    def tearDownClass(cls):
        driver = getattr(cls, "driver", None)
        if driver:
            driver.quit()
        if getattr(cls, "xvfb", None):
            cls.xvfb.stop()
        rig = getattr(cls, "rig", None)
        if rig:
            rig.stop()
        if hasattr(cls, "started"):
            print(f"\n{cls.__name__}: {time.monotonic() - cls.started:.1f} s", file=sys.stderr)

    @property
    def webkit(self):
        return self.ENGINE == "webkit"

    def setUp(self):
        self.network = []          # every performance-log entry of this test (requests, WebSocket frames)
        self.console = []
        self.origins = {urlsplit(self.rig.url).netloc}   # where the page may send requests
        if not self.rig.previewd.running():
            self.rig.start_previewd()
        self.rig.request("clear")
        self.rig.request("repeat", {"mode": "off"})
        self.rig.request("shuffle", {"on": False})
        self.rig.request("volume", {"level": 100})
        self.rig.request("radio", {"on": False})
        self.rig.request("output", {"enabled": True})
        self.load(self.rig.url + "/")

    def load(self, url):
        """Opens `url` (the remote) and waits until it is live."""
        if self.driver.current_url.startswith("http"):
            self.drain()   # what the page before it logged
        self.driver.get(url)
        self.wait(lambda: self.js("return document.readyState") == "complete", "the page to load")
        self.wait_connected()
        if self.webkit:
            self.js(WATCH_FRAMES)
        self.drain()

    def tearDown(self):
        self.drain()
        # Nothing from another origin, ever: every request the page made (the browser's network log, or
        # in WebKit the page's resource timing, which lists every fetch, image, script and style).
        if self.webkit:
            urls = self.js("return performance.getEntries().filter(e => e.entryType === 'resource' || e.entryType === 'navigation').map(e => e.name)")
        else:
            urls = [e["params"]["request"]["url"] if e["method"] == "Network.requestWillBeSent" else e["params"]["url"]
                    for e in self.network if e["method"] in ("Network.requestWillBeSent", "Network.webSocketCreated")]
        foreign = []
        for url in urls:
            parts = urlsplit(url)
            if parts.scheme == "blob":   # an object URL the page made (Play here's MediaSource): its origin's
                parts = urlsplit(parts.path)
            if parts.scheme != "data" and (parts.scheme not in ("http", "ws") or parts.netloc not in self.origins):
                foreign.append(url)
        self.assertEqual(foreign, [], "the page asked another origin")
        seen = {urlsplit(url).path for url in urls}
        self.assertTrue({"/", "/app.js", "/app.css"} <= seen or "/pair.js" in seen, f"the log missed the page's own requests: {seen}")
        csp = [line for line in self.console if "Content Security Policy" in line]
        self.assertEqual(csp, [], "the page broke its Content-Security-Policy")
        if self.webkit:
            self.assertEqual([line for line in self.console if line.startswith("error:")], [], "a script error")

    # ------------------------------------------------------------ helpers

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def el(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def els(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def wait(self, condition, what, timeout=GUARD):
        # An element the page redraws between the driver's lookup and its handle is stale (WebKit
        # says so mid-lookup): the condition is asked again, as the page is still changing.
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05,
                                 ignored_exceptions=(StaleElementReferenceException,)).until(lambda _: condition())
        except TimeoutException:
            self.fail(f"waited {timeout} s for {what}\n{self.rig.logs()}")

    def wait_connected(self):
        self.wait(lambda: self.js("return document.body.classList.contains('live') && document.getElementById('banner').hidden"),
                  "the page to connect (to previewd-web, and through it to previewd)")

    def drain(self):
        """Moves the browser's logs into this test's lists; returns the WebSocket frames sent since the last drain."""
        if self.webkit:
            self.console += self.js("return window.__problems ? window.__problems.splice(0) : []")   # webkit_window.py's
            return self.js("return window.__sent ? window.__sent.splice(0) : []")
        sent = []
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            self.network.append(message)
            if message["method"] == "Network.webSocketFrameSent":
                try:
                    sent.append(json.loads(message["params"]["response"]["payloadData"]))
                except ValueError:
                    pass
        self.console += [e["message"] for e in self.driver.get_log("browser")]
        return sent

    def received(self):
        """The WebSocket frames received, from the entries drained so far."""
        if self.webkit:
            return self.js("return window.__received || []")
        frames = []
        for message in self.network:
            if message["method"] == "Network.webSocketFrameReceived":
                try:
                    frames.append(json.loads(message["params"]["response"]["payloadData"]))
                except ValueError:
                    pass
        return frames

    def resize(self, width, height):
        if self.webkit:
            self.driver.set_window_size(width, height)
        else:
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
        self.wait(lambda: self.js("return innerWidth") == width, f"the page {width} px wide")

    def covered_in_the_header(self, controls):
        """Of the `controls` (CSS), those the banner covers or that are not the topmost thing at their centre."""
        return self.js("""const banner = document.getElementById('banner').getBoundingClientRect();
            return arguments[0].filter(css => {
              const c = document.querySelector(css), r = c.getBoundingClientRect();
              const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
              return r.top < banner.bottom - 0.5 || !hit || !c.contains(hit);
            });""", list(controls))

    def controls_under_the_toast(self):
        """The visible controls (not already under the header) whose centre the toast covers."""
        return self.js("""const toast = document.getElementById('toast');
            const bar = document.querySelector(`#${document.body.dataset.screen} .bar`).getBoundingClientRect();
            return Array.from(document.querySelectorAll('button, select, input, a[href]')).filter(c => {
              if (c.offsetParent === null || toast.contains(c)) return false;
              const r = c.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
              if (y < bar.bottom && !c.closest('.bar')) return false;   // scrolled under the header
              if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return false;
              return toast.contains(document.elementFromPoint(x, y));
            }).map(c => c.id || c.getAttribute('aria-label') || c.className);""")

    def clipboard(self):
        """The system clipboard's text (WebKit: the X server's; Chromium: read back by a page on loopback)."""
        if self.webkit:
            return browsers.x_clipboard(self.xvfb.display)
        return self.on_loopback("return navigator.clipboard.readText().catch(e => 'unreadable: ' + e.name)")

    def clear_clipboard(self):
        if self.webkit:
            browsers.clear_x_clipboard(self.xvfb.display)
        else:
            self.on_loopback("return navigator.clipboard.writeText('-')")

    def on_loopback(self, script):
        """`script` run in a secure context with the clipboard granted (Chromium): this page when it is
        on loopback, else a tab of its own (on plain http a page has no navigator.clipboard)."""
        self.driver.execute_cdp_cmd("Browser.grantPermissions", {
            "origin": self.rig.url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
        if self.driver.current_url.startswith(self.rig.url + "/"):
            return self.js(script)
        page = self.driver.current_window_handle
        self.driver.switch_to.new_window("tab")
        try:
            self.driver.execute_cdp_cmd("Emulation.setFocusEmulationEnabled", {"enabled": True})   # a tab never focused
            self.driver.get(self.rig.url + "/icon.svg")
            return self.js(script)
        finally:
            self.driver.close()
            self.driver.switch_to.window(page)

    def choose(self, css, value):
        """Picks `value` in the select `css`: a click on the option in Chromium; in WebKit, whose
        select opens a GTK menu that WebKitWebDriver can leave in the way of the next click, as the
        menu would (the value set, then the change event)."""
        if not self.webkit:
            Select(self.el(css)).select_by_value(value)
            return
        self.js("const s = document.querySelector(arguments[0]); s.value = arguments[1];"
                "s.dispatchEvent(new Event('input', {bubbles: true})); s.dispatchEvent(new Event('change', {bubbles: true}));",
                css, value)

    def text_of(self, element):
        """The element's text as the page wrote it (WebKitWebDriver reads none in an overflow: hidden box)."""
        return self.js("return arguments[0].textContent", element).strip()

    def shot(self, name, element=None):
        """A screenshot of the screen as a person sees it: from the top, or with `element` in view."""
        if element is None:
            self.js("window.scrollTo(0, 0)")
        else:
            self.js("window.scrollTo(0, Math.max(0, arguments[0].getBoundingClientRect().top + window.scrollY - 72))", element)
        self.js("document.activeElement && document.activeElement.blur()")
        time.sleep(0.3)   # lets the toast and the scroll settle in the picture (not a check)
        path = self.artifacts / f"{name}-{self.size}{self.suffix}.png"
        self.driver.save_screenshot(str(path))
        return path

    def page_queue(self):
        """The item ids of the queue as the page draws it."""
        return self.js("return Array.from(document.querySelectorAll('#queue .qrow'), r => Number(r.dataset.id))")

    def titles(self):
        return self.js("return Array.from(document.querySelectorAll('#results .row-title'), e => e.textContent)")

    def search(self, term):
        field = self.el("#term")
        field.clear()
        field.send_keys(term)
        expected = [t["trackName"] for t in matching(term)]
        self.wait(lambda: sorted(self.titles()) == sorted(expected[:self.per_page()]), f"the results for {term!r}")
        return expected

    def per_page(self):
        return int(Select(self.el("#per-page")).first_selected_option.get_attribute("value"))

    def row(self, title):
        for row in self.els("#results .row"):
            if self.text_of(row.find_element(By.CSS_SELECTOR, ".row-title")) == title:
                return row
        self.fail(f"no row {title!r} in {self.titles()}")

    def tap(self, element):
        self.js("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def expect_tone(self, hz, mark, what):
        found = self.rig.recorder.wait_for_tone(hz, mark)
        self.assertIsNotNone(found, f"{what}: {hz} Hz not heard; heard {self.rig.recorder.tones_after(mark)}\n{self.rig.logs()}")
        return found

    def play_from_results(self, term, title, before_tap=None):
        """Searches, taps `title` and waits until its tone is heard and the player shows it."""
        self.search(term)
        if before_tap: before_tap()
        mark = self.rig.recorder.count
        self.tap(self.row(title).find_element(By.CSS_SELECTOR, ".row-main"))
        self.wait(lambda: self.el("#player").is_displayed() and self.text_of(self.el("#title")) == title, f"the player to show {title}")
        self.expect_tone(TONE[BY_TITLE[title]["trackId"]], mark, f"tapping {title}")


def sized_cases(base, namespace):
    """Adds to `namespace` (a test module's globals) the four classes a browser suite runs: `base` in
    Chromium and WebKitGTK, at a phone's 390×844 and a desktop's 1280×800 (Phone390x844,
    Desktop1280x800, WebKitPhone390x844, WebKitDesktop1280x800)."""
    for engine, prefix in (("chromium", ""), ("webkit", "WebKit")):
        for kind, (width, height) in (("Phone", (390, 844)), ("Desktop", (1280, 800))):
            name = f"{prefix}{kind}{width}x{height}"
            namespace[name] = type(name, (base,), {"WIDTH": width, "HEIGHT": height, "ENGINE": engine,
                                                   "__module__": namespace["__name__"]})
