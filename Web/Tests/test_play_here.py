""""Play here" in real browsers (Chromium and WebKitGTK, phone and desktop sizes): the page plays the queue
itself from previewd's own bytes, into a null sink of its own ("previewd_web_page", its monitor recorded
beside previewd's), so what is heard tells who plays what. The browser is started unmuted with
$PULSE_SINK naming that sink. Every wait is a hang guard, never a speed check (scripts/bench-web times)."""

import hashlib
import os
import subprocess
import sys
import unittest
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import browser_rig  # noqa: E402
from page_case import TONE, PageCase, sized_cases  # noqa: E402

PAGE_SINK = "previewd_web_page"


class PageSink:
    """A second null sink on the rig's PulseAudio, for the page's sound (Recorder reads `server`, `sink`)."""

    def __init__(self, pulse):
        self.server, self.sink = pulse.server, PAGE_SINK
        subprocess.run(["pactl", "--server", pulse.server, "load-module", "module-null-sink", f"sink_name={PAGE_SINK}"],
                       check=True, capture_output=True, timeout=30)


class PlayHereCase(PageCase):
    @classmethod
    def start_browser(cls, audible=False):
        folder = Path(cls.rig.dir) / "page-sink"
        folder.mkdir()
        cls.page_recorder = browser_rig.Recorder(PageSink(cls.rig.pulse), folder)
        saved = {k: os.environ.get(k) for k in ("PULSE_SERVER", "PULSE_SINK")}
        os.environ.update(PULSE_SERVER=cls.rig.pulse.server, PULSE_SINK=PAGE_SINK)   # the browser's (and its children's)
        try:
            super().start_browser(audible=True)
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "page_recorder", None):
            cls.page_recorder.stop()
        super().tearDownClass()

    def tearDown(self):
        if self.js("return !!document.getElementById('play-here') && document.getElementById('play-here').getAttribute('aria-pressed') === 'true'"):
            self.el("#play-here").click()   # the claim is given back before the next test
        super().tearDown()

    def heard_on_page(self, hz, mark, what):
        found = self.page_recorder.wait_for_tone(hz, mark)
        self.assertIsNotNone(found, f"{what}: {hz} Hz not heard in the page; heard {self.page_recorder.tones_after(mark)}\n{self.rig.logs()}")
        return found

    def page_item(self):
        return self.js("return previewd.playHere.itemId")

    def test_plays_here_follows_previewd_and_gives_the_sound_back(self):
        self.play_from_results("sine", "A Four Forty")
        status = self.rig.status()
        first = status["id"]

        # On: the page plays the current track; here only: the box's sink goes silent.
        mark = self.page_recorder.count
        self.tap(self.el("#play-here"))
        self.heard_on_page(440, mark, "Play here on")
        self.wait(lambda: (self.rig.status().get("playHere") or {}).get("hereOnly") is True, "previewd to know the page plays here")
        self.assertIsNotNone(self.rig.recorder.wait_for_silence(0.5, self.rig.recorder.count), "here only: the box is silent")
        self.shot("play-here", self.el("#title"))

        # The same bytes as previewd holds (the stand-in's preview file, which previewd fetched).
        url = next(i["track"]["previewUrl"] for i in self.rig.queue()["items"] if i["id"] == first)
        with urllib.request.urlopen(url, timeout=30) as answer:
            expected = hashlib.sha256(answer.read()).hexdigest()
        served = self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch('/audio/item/' + arguments[0]).then(r => r.arrayBuffer()).then(b => crypto.subtle.digest('SHA-256', b))
              .then(d => done(Array.from(new Uint8Array(d), x => x.toString(16).padStart(2, '0')).join('')), e => done(String(e)));
        """, first)
        self.assertEqual(served, expected, "the page's bytes are previewd's")

        # Its position advances and previewd's status position with it (the page keeps the clock).
        at = self.js("return previewd.playHere.position()")
        self.wait(lambda: self.js("return previewd.playHere.position()") > at + 1000, "the page's position to advance")
        self.wait(lambda: abs(self.rig.status()["positionMs"] - self.js("return previewd.playHere.position()")) < 600,
                  "previewd's position to follow the page's")

        # previewctl next moves the page's playback.
        mark = self.page_recorder.count
        self.assertEqual(self.rig.ctl("next").returncode, 0)
        self.heard_on_page(660, mark, "previewctl next")
        second = self.rig.status()["id"]
        self.wait(lambda: self.page_item() == second, "the page to play previewd's new track")

        # The media session's nexttrack (a headset, the lock screen) moves previewd.
        mark = self.page_recorder.count
        self.js("previewd.mediaActions.nexttrack()")
        self.wait(lambda: self.rig.status()["id"] not in (first, second), "nexttrack to move previewd")
        third = self.rig.status()
        self.heard_on_page(TONE[third["track"]["trackId"]], mark, "nexttrack")
        if not self.webkit:   # WebKitGTK has no Media Session API
            self.assertEqual(self.js("return navigator.mediaSession.metadata && navigator.mediaSession.metadata.title"),
                             third["track"]["trackName"])

        # A track's end in the page advances both.
        self.rig.request("seek", {"position": max(0, third["durationMs"] / 1000 - 1.2)})
        self.wait(lambda: self.rig.status()["id"] != third["id"], "the track's end to advance previewd")
        fourth = self.rig.status()
        mark = self.page_recorder.count
        self.heard_on_page(TONE[fourth["track"]["trackId"]], max(0, mark - self.page_recorder.RATE), "the track after the end")
        self.wait(lambda: self.page_item() == fourth["id"], "the page to follow the end")

        # Off: the box sounds again, at the position the page reached.
        reached = self.js("return previewd.playHere.position()")
        mark = self.rig.recorder.count
        self.tap(self.el("#play-here"))
        self.expect_tone(TONE[fourth["track"]["trackId"]], mark, "Play here off: the box plays again")
        self.assertIsNone(self.rig.status().get("playHere"))
        self.assertGreaterEqual(self.rig.status()["positionMs"], reached - 300, "the box goes on from where the page was")


sized_cases(PlayHereCase, globals())
del PlayHereCase   # only the sized classes run

if __name__ == "__main__":
    unittest.main()
