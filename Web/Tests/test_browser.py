"""previewd-web's pages in real browsers, both engines a phone may have: Chromium (Debian's, headless,
through chromedriver) and WebKit, Safari's engine (Debian's WebKitGTK through WebKitWebDriver, under
Xvfb), driven by selenium at a phone's 390×844 and a desktop's 1280×800, against the real parts:
previewd-web on loopback, previewd on a private PulseAudio null sink whose monitor is recorded, the
iTunes stand-in and its tone previews (one frequency per track, so what is heard names the track).

Every wait below is a hang guard (15 s), never a speed check, except where the issue names a bound:
an outside `previewctl next` shows on the page within 1 s. Screenshots of each screen at each size go
to $PREVIEWD_ARTIFACTS (default Web/.artifacts/), named SCREEN-WIDTHxHEIGHT.png for Chromium and
SCREEN-WIDTHxHEIGHT-webkit.png for WebKit."""

import json
import re
import signal
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import browser_rig  # noqa: E402
from page_case import BY_TITLE, CATALOG, PUBLIC, TONE, PageCase, matching, sized_cases  # noqa: E402,F401

try:
    from selenium.common.exceptions import JavascriptException, TimeoutException
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # reported by setUpClass
    pass


class PageTestCase(PageCase):
    """The remote's screens, each test from an empty queue and a fresh page."""

    # ------------------------------------------------------------ the search screen

    def test_search_as_you_type(self):
        field = self.el("#term")
        field.send_keys("ton")           # no Enter: the field searches as one types
        self.wait(lambda: sorted(self.titles()) == sorted(t["trackName"] for t in matching("ton")), "the results for 'ton'")
        field.send_keys("es")
        expected = [t["trackName"] for t in matching("tones")]
        self.wait(lambda: sorted(self.titles()) == sorted(expected), "the results to follow the typing ('tones')")
        searches = [f for f in self.drain() if f.get("cmd") == "search"]
        self.assertTrue(all(f["args"].get("queue") is False for f in searches), f"a search touched the queue: {searches}")
        self.assertEqual(self.rig.queue()["items"], [], "searching must leave the queue alone")
        # Each row says what the seeds' rows say.
        row = self.row("A Four Forty")
        text = self.text_of(row)
        for part in ("The Sine Waves", "Pure Tones", "2005", "0:08", "Electronic"):
            self.assertIn(part, text, f"the row lacks {part!r}")
        self.assertIn("$1.29", re.sub(r"\s", "", text), "the row lacks its price")   # WebKit writes "$\xa01.29"

    def test_result_thumbnails_and_placeholders(self):
        self.search("sine")
        # Thumbnails: drawn from previewd-web's /art/track/ (a JPEG and a PNG); a track whose artwork is
        # missing keeps the placeholder.
        def loaded(title):
            return self.js("const i = arguments[0].querySelector('.thumb img');"
                           "return i.complete && i.naturalWidth > 0 && new URL(i.src).pathname.startsWith('/art/track/');",
                           self.row(title))
        for title in ("A Four Forty", "E Six Sixty"):
            self.wait(lambda: loaded(title), f"the thumbnail of {title}")
            self.assertNotIn("placeholder", self.row(title).find_element(By.CSS_SELECTOR, ".thumb").get_attribute("class"))
        missing = self.row("C# Five Fifty").find_element(By.CSS_SELECTOR, ".thumb")
        self.wait(lambda: self.js("const i = arguments[0].querySelector('img'); return i.complete || !i.src;", missing),
                  "the missing thumbnail to settle")
        self.assertIn("placeholder", missing.get_attribute("class"))
        self.shot("search")

    def test_sort_by_duration_genre_and_price(self):
        expected = self.search("tone")
        self.assertIn("Tone Poem: The Motion Picture", expected)

        def order(key):
            self.choose("#sort", key)
            return self.titles()

        def key_order(field, missing_last=True):
            known = [t for t in matching("tone") if t.get(field) is not None and not (field == "trackPrice" and t[field] < 0)]
            return [t["trackName"] for t in sorted(known, key=lambda t: t[field])]

        for key, field in (("duration", "trackTimeMillis"), ("genre", "primaryGenreName"), ("price", "trackPrice")):
            shown = order(key)
            values = [BY_TITLE[title][field] for title in shown]
            self.assertEqual(values, sorted(values), f"sorted by {key}: {shown}")
            self.assertEqual(sorted(shown), sorted(key_order(field)))
        self.assertEqual(order("duration")[-1], "Tone Poem: The Motion Picture")
        self.assertEqual(order("genre")[0], "Tone Poem: The Motion Picture")   # Comedy before Electronic
        self.assertEqual(order("")[0:len(expected)], [t for t in expected])   # back to previewd's order

    def test_tabs_ask_for_all_songs_and_movies(self):
        self.search("tone")
        self.drain()
        asked = {}
        for tab, media in (("songs", "media=music&entity=song"), ("movies", "media=movie"), ("all", "media=all")):
            mark = len(self.received())
            self.tap(self.el(f"#tab-{tab}"))
            self.assertEqual(self.el(f"#tab-{tab}").get_attribute("aria-selected"), "true")

            def answered():
                self.drain()
                return [f for f in self.received()[mark:] if f.get("ok") and isinstance(f.get("result"), dict)
                        and "requests" in f["result"]]
            answers = self.wait(answered, f"the {tab} tab's search to be answered")
            asked[tab] = answers[-1]["result"]["requests"]
            self.assertTrue(any(media in url and "term=tone" in url for url in asked[tab]),
                            f"the {tab} tab asked {asked[tab]}, not {media}")
            self.wait(lambda: len(self.titles()) > 0, f"the {tab} tab's rows")

    def test_per_page_and_more(self):
        everything = [t["trackName"] for t in matching("e")]
        self.assertGreater(len(everything), 10)
        self.choose("#per-page", "10")
        self.el("#term").send_keys("e")
        self.wait(lambda: len(self.titles()) == 10, "10 rows")
        self.assertTrue(self.el("#more").is_displayed(), "a full page offers more")
        self.tap(self.el("#more"))
        self.wait(lambda: len(self.titles()) == len(everything), f"{len(everything)} rows after more")
        self.assertEqual(sorted(self.titles()), sorted(everything))
        self.wait(lambda: not self.el("#more").is_displayed(), "more to go once the last page is in")
        more = [f for f in self.drain() if f.get("cmd") == "more"]
        self.assertEqual(more[-1]["args"], {"queue": False})
        for size in ("30", "50"):
            self.choose("#per-page", size)
            self.wait(lambda: len(self.titles()) == len(everything) and self.js("return document.getElementById('spinner').hidden"),
                      f"{size} per page")
            searches = [f for f in self.drain() if f.get("cmd") == "search"]
            self.assertEqual(searches[-1]["args"]["limit"], int(size))
            self.assertFalse(self.el("#more").is_displayed())

    def test_top_chart_and_refresh(self):
        self.tap(self.el("#tab-top"))
        charted = [t["trackName"] for t in CATALOG if t.get("previewUrl")][:50]
        self.wait(lambda: self.titles() == charted, "the chart's rows")
        self.assertTrue(self.el("#refresh").is_displayed())
        tops = [f for f in self.drain() if f.get("cmd") == "top"]
        self.assertEqual(tops[-1]["args"], {"queue": False, "limit": 50})
        self.wait(lambda: self.js("return Array.from(document.querySelectorAll('#results img')).every(i => i.complete)"),
                  "the chart's thumbnails to settle (for the screenshot)")
        self.shot("chart")
        self.tap(self.el("#refresh"))
        self.wait(lambda: any(f.get("cmd") == "top" for f in self.drain()), "Refresh to ask the chart again")
        self.wait(lambda: self.titles() == charted and self.js("return document.getElementById('spinner').hidden"),
                  "the chart again")
        self.assertEqual(self.rig.queue()["items"], [], "the chart must leave the queue alone")

    def test_add_and_play_next_buttons(self):
        self.search("sine")
        self.tap(self.row("A Four Forty").find_element(By.CSS_SELECTOR, ".add"))
        self.wait(lambda: len(self.rig.queue()["items"]) == 1, "Add to queue one track")
        self.tap(self.row("E Six Sixty").find_element(By.CSS_SELECTOR, ".add"))
        self.wait(lambda: len(self.rig.queue()["items"]) == 2, "Add to queue a second track")
        self.tap(self.row("Brief Nine Ninety").find_element(By.CSS_SELECTOR, ".play-next"))
        self.wait(lambda: len(self.rig.queue()["items"]) == 3, "Play next to queue a track")
        ids = [i["track"]["trackId"] for i in self.rig.queue()["items"]]
        self.assertEqual(ids[-2:] if ids[0] == 3002 else ids[:2], [1001, 1002], ids)
        self.assertIn(3002, ids)
        frames = [f for f in self.drain() if f.get("cmd") == "add"]
        self.assertEqual([f["args"].get("at") for f in frames], [None, None, "next"])
        # The toast that says so covers no control (it sits over the header's title); a tap dismisses it.
        self.wait(lambda: "plays next" in self.text_of(self.el("#toast")) and self.el("#toast").is_displayed(), "the toast")
        self.assertEqual(self.controls_under_the_toast(), [])
        self.shot("toast")
        self.tap(self.el("#open-player"))
        self.wait(lambda: self.el("#player").is_displayed(), "the player screen")
        self.js("document.querySelector('.queue-panel').scrollIntoView({block: 'end'}); previewd.toast('Audio output back')")
        self.assertEqual(self.controls_under_the_toast(), [], "on the player screen, the queue in view")
        self.el("#toast").click()
        self.wait(lambda: not self.el("#toast").is_displayed(), "a tap to dismiss the toast")

    def test_the_seeds_errors_no_connection_and_invalid_answer(self):
        # The store unreachable: "no connection" (the seeds' offline customer).
        self.rig.standin.stop()
        try:
            self.el("#term").send_keys("seventy")
            self.wait(lambda: "No connection" in self.text_of(self.el("#search-status")), "the page to say no connection")
            self.assertIn("error", self.el("#search-status").get_attribute("class"))
            self.assertEqual(self.titles(), [])
            self.shot("search-no-connection")
            # The store answering HTML: "invalid answer" (the seeds' invalid data).
            self.rig.restart_standin("/search=html")
            self.el("#term").clear()
            self.el("#term").send_keys("ninety")
            self.wait(lambda: "Invalid answer" in self.text_of(self.el("#search-status")), "the page to say invalid answer")
        finally:
            self.rig.restart_standin()
        # The store back: the same field searches again.
        self.el("#term").clear()
        self.el("#term").send_keys("brief")
        self.wait(lambda: sorted(self.titles()) == sorted(t["trackName"] for t in matching("brief")), "the results once the store is back")
        self.assertNotIn("error", self.el("#search-status").get_attribute("class"))

    # ------------------------------------------------------------ the player screen

    def test_tap_plays_then_next_pause_seek_volume(self):
        seen = []
        told = lambda: seen.extend(self.drain()) or any(f.get("cmd") == "visible" and 1001 in f["args"]["trackIds"] for f in seen)
        self.play_from_results("sine", "A Four Forty",
                               before_tap=lambda: self.wait(told, "the page to tell previewd which rows are on screen"))
        shown = [BY_TITLE[t]["trackId"] for t in self.titles()]
        queued = [i["track"]["trackId"] for i in self.rig.queue()["items"]]
        self.assertEqual(queued, shown, "the results on screen are the queue")
        frames = self.drain()
        self.assertEqual([f["cmd"] for f in frames if f.get("cmd") in ("clear", "add", "play")], ["add"], "a tap is one request")
        tap = next(f for f in frames if f.get("cmd") == "add")["args"]
        self.assertEqual((tap.get("trackIds"), tap.get("replace"), tap.get("play")), (shown, True, shown.index(1001)))
        self.wait(lambda: self.text_of(self.el("#queue .qrow.current .qrow-title")) == "A Four Forty", "the queue to mark the current track")
        self.wait(lambda: "E Six Sixty" in self.text_of(self.el("#up-next")), "up next")
        self.shot("player")

        mark = self.rig.recorder.count
        self.tap(self.el("#next"))
        self.wait(lambda: self.text_of(self.el("#title")) == "E Six Sixty", "next to show the next title")
        self.expect_tone(660, mark, "next")

        self.tap(self.el("#toggle"))
        self.wait(lambda: self.rig.status()["state"] == "paused", "pause")
        self.wait(lambda: self.el("#toggle").get_attribute("aria-label") == "Play", "the page to show paused")
        self.assertIsNotNone(self.rig.recorder.wait_for_silence(0.5, self.rig.recorder.count),
                             "paused, the sink must be silent")

        # Seek: a click on the position bar at 40% moves previewd there (the track is 8 s long: what is
        # left is heard after the resume below).
        bar = self.el("#position")
        width = bar.size["width"]
        ActionChains(self.driver).move_to_element_with_offset(bar, -int(width * 0.1), 0).click().perform()
        asked = int(self.js("return Number(document.getElementById('position').value)"))
        duration = self.rig.status()["durationMs"]
        self.assertTrue(duration * 0.3 < asked < duration * 0.5, f"{asked} of {duration} ms")
        self.wait(lambda: abs(self.rig.status()["positionMs"] - asked) <= 250, f"previewd at {asked} ms after the seek")
        seeks = [f for f in self.drain() if f.get("cmd") == "seek"]
        self.assertAlmostEqual(seeks[-1]["args"]["position"], asked / 1000, places=2)

        # Volume: a click at the bar's second third, then the End key (the keyboard's way) back to 100.
        volume = self.el("#volume")
        ActionChains(self.driver).move_to_element_with_offset(volume, int(volume.size["width"] / 6), 0).click().perform()
        level = int(self.js("return Number(document.getElementById('volume').value)"))
        self.assertTrue(50 < level < 85, level)
        self.wait(lambda: self.rig.status()["volume"] == level, f"previewd's volume at {level}")
        self.assertEqual(self.text_of(self.el("#volume-value")), str(level))
        volume.send_keys(Keys.END)
        self.wait(lambda: self.rig.status()["volume"] == 100, "previewd's volume back at 100 (End)")

        mark = self.rig.recorder.count
        self.tap(self.el("#toggle"))
        self.expect_tone(660, mark, "play after pause")

    def test_queue_reordered_by_dragging(self):
        self.search("sine")
        for title in ("A Four Forty", "E Six Sixty", "A Eight Eighty (Mono)", "C Eleven Hundred"):
            self.tap(self.row(title).find_element(By.CSS_SELECTOR, ".add"))
        self.wait(lambda: len(self.rig.queue()["items"]) == 4, "four tracks queued")
        self.tap(self.el("#open-player"))
        self.wait(lambda: len(self.els("#queue .qrow")) == 4, "the queue on the page")
        before = [i["id"] for i in self.rig.queue()["items"]]
        rows = self.els("#queue .qrow")
        handle = rows[0].find_element(By.CSS_SELECTOR, ".handle")
        self.js("arguments[0].scrollIntoView({block: 'center'})", rows[1])   # all four rows in view, clear of the header
        step = rows[1].location["y"] - rows[0].location["y"]
        # The first row dragged down past the third row's middle: it lands third.
        ActionChains(self.driver).click_and_hold(handle).move_by_offset(0, 8).move_by_offset(0, int(step * 2) - 8 + 4) \
            .release().perform()
        after = before[1:3] + before[:1] + before[3:]
        self.wait(lambda: [i["id"] for i in self.rig.queue()["items"]] == after, f"previewd's queue {after} after the drag")
        self.wait(lambda: self.page_queue() == after, "the page's queue")
        moves = [f for f in self.drain() if f.get("cmd") == "move"]
        self.assertEqual(moves[-1]["args"], {"from": 0, "to": 2})
        # The keyboard's way: the arrow keys on a row's handle move it.
        self.js("document.querySelector('#queue .qrow .handle').focus()")
        ActionChains(self.driver).send_keys(Keys.ARROW_DOWN).perform()
        after = after[1:2] + after[:1] + after[2:]
        self.wait(lambda: [i["id"] for i in self.rig.queue()["items"]] == after, f"previewd's queue {after} after ArrowDown")
        self.wait(lambda: self.page_queue() == after, "the page's queue after ArrowDown")
        self.assertEqual(self.js("return Number(document.activeElement.closest('.qrow').dataset.id)"), after[1],
                         "the focus stays on the row moved")
        # The remove button takes one out.
        self.tap(self.els("#queue .qrow")[3].find_element(By.CSS_SELECTOR, ".remove"))
        self.wait(lambda: [i["id"] for i in self.rig.queue()["items"]] == after[:3], "remove")
        self.wait(lambda: self.page_queue() == after[:3], "the page's queue after remove")
        # A row tapped plays that item.
        row = self.els("#queue .qrow")[1]
        title = self.text_of(row.find_element(By.CSS_SELECTOR, ".qrow-title"))
        item = int(row.get_attribute("data-id"))
        mark = self.rig.recorder.count
        self.tap(row.find_element(By.CSS_SELECTOR, ".qrow-main"))
        self.wait(lambda: self.rig.status()["id"] == item, f"{title} playing")
        self.expect_tone(TONE[BY_TITLE[title]["trackId"]], mark, f"tapping {title} in the queue")
        self.wait(lambda: self.text_of(self.el("#title")) == title, "the player to show it")
        self.shot("queue", self.el(".queue-panel"))

    def test_outside_previewctl_next_shows_within_a_second(self):
        self.play_from_results("sine", "A Four Forty")
        result = self.rig.ctl("next")
        self.assertEqual(result.returncode, 0, result.stderr)
        # The bound: a change made elsewhere shows within a second (a functional bound).
        try:
            WebDriverWait(self.driver, 1.0, poll_frequency=0.02).until(lambda _: self.text_of(self.el("#title")) == "E Six Sixty")
        except TimeoutException:
            self.fail(f"the page still shows {self.text_of(self.el('#title'))!r} 1 s after previewctl next")
        self.wait(lambda: self.text_of(self.el("#queue .qrow.current .qrow-title")) == "E Six Sixty", "the queue to follow")

    def test_previewd_killed_then_back(self):
        self.play_from_results("sine", "A Four Forty")
        self.tap(self.el("#toggle"))
        self.wait(lambda: self.rig.status()["state"] == "paused", "pause")
        self.rig.previewd.stop(signal.SIGTERM)        # previewd gone (it keeps its session on the way out)
        self.wait(lambda: "previewd is not running" in self.text_of(self.el("#banner")) and self.el("#banner").is_displayed(),
                  "the page to say previewd is not running")
        self.shot("daemon-down")
        self.rig.start_previewd()
        self.wait_connected()
        self.wait(lambda: self.text_of(self.el("#title")) == "A Four Forty", "the page to show the track again")
        self.wait(lambda: self.el("#toggle").get_attribute("aria-label") == "Play", "the page to show it paused")
        self.wait(lambda: len(self.els("#queue .qrow")) == len(matching("sine")), "the queue again")
        mark = self.rig.recorder.count
        self.tap(self.el("#toggle"))
        self.expect_tone(440, mark, "play after previewd came back")

    def test_web_server_gone_then_back(self):
        self.play_from_results("sine", "A Four Forty")
        self.rig.web.stop(signal.SIGTERM)
        self.wait(lambda: "No connection" in self.text_of(self.el("#banner")), "the page to say there is no connection")
        self.shot("no-connection")
        # The banner takes its own height (two lines on a narrow phone): it never covers the header.
        for width in (320, 360, 390, 430):
            self.resize(width, self.HEIGHT)
            for screen, controls in (("player", ("#back", "#share")), ("search", ("#open-player", "#play-here-search"))):
                self.js("previewd.showScreen(arguments[0])", screen)
                # (waited for: the banner's new height is taken when the browser next lays the page out)
                self.wait(lambda: self.covered_in_the_header(controls) == [],
                          f"the header clear of the banner at {width} px on the {screen} screen: "
                          f"{self.covered_in_the_header(controls)} covered")
        self.js("previewd.showScreen('player')")
        self.resize(self.WIDTH, self.HEIGHT)
        self.rig.web.start()           # the same port and config folder
        self.wait_connected()
        self.wait(lambda: self.text_of(self.el("#title")) in ("A Four Forty", "E Six Sixty", "A Eight Eighty (Mono)"),
                  "the page to catch up")

    def test_modes_mark_share_and_store_link(self):
        self.play_from_results("sine", "A Four Forty")
        for mode in ("all", "one", "off"):
            self.tap(self.el("#repeat"))
            self.wait(lambda: self.rig.status()["repeat"] == mode, f"repeat {mode}")
            self.wait(lambda: self.el("#repeat").get_attribute("aria-label") == f"Repeat: {mode}", f"the page to say repeat {mode}")
        self.tap(self.el("#shuffle"))
        self.wait(lambda: self.rig.status()["shuffle"] is True, "shuffle on")
        self.wait(lambda: self.el("#shuffle").get_attribute("aria-pressed") == "true", "the page to say shuffle on")
        self.tap(self.el("#mark"))
        self.wait(lambda: self.rig.status()["marked"] is True, "mark")
        self.wait(lambda: self.el("#mark").get_attribute("aria-pressed") == "true", "the page to say marked")
        self.tap(self.el("#mark"))
        self.wait(lambda: self.rig.status()["marked"] is False, "unmark")
        # The store link: the track's own, opened apart from this page.
        store = self.el("#store")
        self.assertEqual(store.get_attribute("href"), BY_TITLE["A Four Forty"]["trackViewUrl"])
        self.assertEqual(store.get_attribute("target"), "_blank")
        self.assertEqual(set(store.get_attribute("rel").split()), {"noopener", "noreferrer"})

    def test_outputs_and_radio_switches(self):
        """The box's outputs, a chip each, turned off and on from the page (previewd's status follows);
        the radio switch."""
        self.play_from_results("sine", "A Four Forty")
        chip = lambda: self.el("#outputs button.output")
        self.wait(lambda: chip().is_displayed() and chip().get_attribute("aria-pressed") == "true", "the output listed, on")
        self.assertEqual(chip().text, self.rig.status()["outputs"][0]["name"])
        for enabled in (False, True):
            self.tap(chip())
            self.wait(lambda: self.rig.status()["outputs"][0]["enabled"] is enabled, f"the output {'on' if enabled else 'off'}")
            self.wait(lambda: chip().get_attribute("aria-pressed") == str(enabled).lower(), "the page to say so")
        for on in (True, False):
            self.tap(self.el("#radio"))
            self.wait(lambda: self.rig.status()["radio"] is on, f"radio {'on' if on else 'off'}")
            self.wait(lambda: self.el("#radio").get_attribute("aria-pressed") == str(on).lower(), "the page to say so")

    def test_share_copies_the_store_link_within_the_tap(self):
        self.play_from_results("sine", "A Four Forty")
        link = BY_TITLE["A Four Forty"]["trackViewUrl"]
        self.assertTrue(self.js("return window.isSecureContext"), "http on loopback is a secure context")
        self.assertFalse(self.js("return typeof navigator.share === 'function'"), "neither engine here has a share sheet")
        self.clear_clipboard()
        self.drain()
        self.tap(self.el("#share"))
        self.wait(lambda: self.clipboard() == link, "the store link on the clipboard")
        self.wait(lambda: "copied" in self.text_of(self.el("#toast")), "share to say it copied")
        self.assertEqual([f for f in self.drain() if f.get("cmd") == "share"], [], "the share text is the page's own: no round trip")

    @unittest.skipUnless(PUBLIC, "needs a non-loopback address of the test's own (Web/Tests/run gives one as root)")
    def test_home_screen_pairs_by_code_then_shares_on_plain_http(self):
        web = browser_rig.Web(self.rig, host=PUBLIC, config_dir=tempfile.mkdtemp(prefix="config-", dir=self.rig.dir))
        paired = web.run("--pair", "--listen", web.address)
        self.assertEqual(paired.returncode, 0, paired.stderr)
        code = re.search(r"within \d+ minutes: (\d{6})$", paired.stdout, re.M).group(1)
        web.start()
        self.origins.add(web.address)
        try:
            # A Home Screen copy opens on "Pair this device" (no cookie, no address bar): the code pairs it.
            self.drain()
            self.driver.get(web.origin + "/")
            self.wait(lambda: self.js("return document.readyState") == "complete" and self.els("#pair-code"), "the pairing page")
            self.shot("pair")
            self.el("#pair-code").send_keys(code)
            self.tap(self.el("#pair-submit"))

            def remote_open():
                try:
                    return self.js("return location.pathname === '/' && !!document.getElementById('results')")
                except JavascriptException:   # asked while the page was being replaced
                    return False
            self.wait(remote_open, "the remote once paired")
            self.load(web.origin + "/")
            self.assertFalse(self.js("return window.isSecureContext"), "plain http on a LAN address is not a secure context")
            self.assertFalse(self.js("return !!navigator.clipboard"))
            # Share: the link in a field of its own, copied in the tap itself, and a Copy button.
            self.play_from_results("sine", "A Four Forty")
            link = BY_TITLE["A Four Forty"]["trackViewUrl"]
            self.clear_clipboard()
            self.tap(self.el("#share"))
            self.wait(lambda: self.el("#share-panel").is_displayed(), "the share panel")
            self.assertEqual(self.el("#share-link").get_attribute("value"), link)
            self.assertEqual(self.js("const f = document.getElementById('share-link'); return f.value.slice(f.selectionStart, f.selectionEnd)"),
                             link, "the link selected")
            self.assertEqual(self.text_of(self.el("#share-note")), "Copied to the clipboard.")
            self.assertEqual(self.clipboard(), link)
            self.shot("share-panel")
            self.clear_clipboard()
            self.tap(self.el("#share-copy"))
            self.assertEqual(self.clipboard(), link, "Copy copies it again")
            self.tap(self.el("#share-close"))
            self.assertFalse(self.el("#share-panel").is_displayed())
            # The code was spent: typed again (on a device not yet paired), it pairs nobody.
            status, _, _ = web.request("POST", "/pair/code", json.dumps({"code": code}),
                                       {"Origin": web.origin, "Content-Type": "application/json"})
            self.assertEqual(status, 403)
        finally:
            web.stop()
            self.driver.get(self.rig.url + "/")

    def test_one_artwork_request_per_track_change(self):
        self.play_from_results("sine", "A Four Forty")
        for step in range(2):
            item = self.rig.status()["id"]
            self.wait(lambda: self.js("const i = document.getElementById('artwork'); return i.complete && i.naturalWidth > 0"),
                      "the artwork")
            # Whatever previewd said of this track's artwork has reached the page: a later event has.
            level = 90 + step
            self.rig.request("volume", {"level": level})
            self.wait(lambda: self.text_of(self.el("#volume-value")) == str(level), "a later event on the page")
            asked = self.js("return performance.getEntriesByType('resource').map(e => new URL(e.name).pathname)"
                            ".filter(p => p === arguments[0])", f"/art/item/{item}")
            self.assertEqual(len(asked), 1, f"the artwork of item {item} asked {len(asked)} times")
            if step == 0:
                self.tap(self.el("#next"))
                self.wait(lambda: self.rig.status()["id"] != item, "the next track")

    def test_touch_first_css(self):
        # No field under 16 px (iOS zooms into one and stays zoomed).
        small = self.js("""return Array.from(document.querySelectorAll('input, select, textarea')).filter(e => e.type !== 'range')
            .map(e => [e.id, parseFloat(getComputedStyle(e).fontSize)]).filter(([, size]) => size < 16);""")
        self.assertEqual(small, [])
        # Hover looks only where there is hover (else a tapped button stays grey on a touch screen).
        unguarded = self.js("""const out = [];
            const walk = (rules, guarded) => { for (const r of rules) {
              if (r.media) walk(r.cssRules, guarded || /hover:\\s*hover/.test(r.media.mediaText));
              else if (r.selectorText && r.selectorText.includes(':hover') && !guarded) out.push(r.selectorText);
            } };
            for (const sheet of document.styleSheets) walk(sheet.cssRules, false);
            return out;""")
        self.assertEqual(unguarded, [])
        # The sheet as written: a plain colour before each color-mix() (iOS before 16.2), and
        # -webkit-backdrop-filter beside backdrop-filter (iOS before 18).
        sheet = self.js("return fetch('/app.css').then(r => r.text())")
        for block in re.findall(r"\{([^{}]*)\}", re.sub(r"/\*.*?\*/", "", sheet, flags=re.S)):
            declarations = [d.strip().split(":", 1) for d in block.split(";") if ":" in d]
            names = [name.strip() for name, _ in declarations]
            for i, (name, value) in enumerate(declarations):
                if "color-mix(" in value:
                    self.assertTrue(any(n == name.strip() and "color-mix(" not in v for n, v in declarations[:i]),
                                    f"no fallback before {name}: {value}")
                if name.strip() == "backdrop-filter":
                    self.assertIn("-webkit-backdrop-filter", names)

    def test_installable_dark_and_reduced_motion(self):
        # The manifest a phone reads to put the remote on its home screen, and its icons.
        manifest = self.js("""const link = document.querySelector('link[rel=manifest]');
            return fetch(link.href).then(r => r.json());""")
        self.assertEqual((manifest["name"], manifest["display"], manifest["start_url"]), ("previewd", "standalone", "/"))
        self.assertTrue(manifest.get("theme_color"))
        for icon in manifest["icons"]:
            size = self.js("""return new Promise(done => { const i = new Image(); i.onload = () => done([i.naturalWidth, i.naturalHeight]);
                i.onerror = () => done(null); i.src = arguments[0]; });""", icon["src"])
            self.assertIsNotNone(size, f"{icon['src']} does not load")
            if icon["sizes"] != "any":
                self.assertEqual("x".join(map(str, size)), icon["sizes"], icon["src"])
        self.assertEqual(self.el("link[rel=apple-touch-icon]").get_attribute("href"), self.rig.url + "/icon-192.png")
        # Dark when the system is dark; no animation when less motion is asked for.
        if self.webkit:
            return   # WebKitWebDriver cannot emulate media features (WebKitGTK takes them from GTK's settings)
        light = self.js("return getComputedStyle(document.body).backgroundColor")
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
            {"name": "prefers-color-scheme", "value": "dark"}, {"name": "prefers-reduced-motion", "value": "reduce"}]})
        try:
            dark = self.js("return getComputedStyle(document.body).backgroundColor")
            self.assertNotEqual(dark, light)
            channels = [int(c) for c in dark[dark.index("(") + 1:dark.index(")")].split(",")[:3]]
            self.assertLess(sum(channels) / 3, 60, f"dark background {dark}")
            self.assertEqual(self.js("return getComputedStyle(document.getElementById('spinner')).animationName"), "none")
            self.search("sine")
            self.shot("search-dark")
        finally:
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    def test_keyboard_and_labels(self):
        # Every button has a name a screen reader can say; space plays and pauses outside the field.
        unnamed = self.js("""return Array.from(document.querySelectorAll('button')).filter(b =>
            !(b.getAttribute('aria-label') || b.textContent.trim())).map(b => b.outerHTML.slice(0, 80));""")
        self.assertEqual(unnamed, [])
        self.play_from_results("sine", "A Four Forty")
        self.js("document.activeElement.blur()")
        self.driver.find_element(By.TAG_NAME, "body").send_keys(Keys.SPACE)
        self.wait(lambda: self.rig.status()["state"] == "paused", "space to pause")
        small = self.js("""return Array.from(document.querySelectorAll('button, select, input[type=range], a.chip'))
            .filter(e => e.offsetParent !== null).map(e => [e.id || e.className, e.getBoundingClientRect()])
            .filter(([_, r]) => r.width < 44 || r.height < 44).map(([n, r]) => `${n} ${r.width}x${r.height}`);""")
        self.assertEqual(small, [], "touch targets must be at least 44 px")


sized_cases(PageTestCase, globals())
del PageTestCase   # only the sized classes run

if __name__ == "__main__":
    unittest.main()

