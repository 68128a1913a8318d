""""Play here" in real browsers (Chromium and WebKitGTK, phone and desktop sizes): the page plays the queue
itself from previewd's own bytes, into a null sink of its own ("previewd_web_page", its monitor recorded
beside previewd's), so what is heard tells who plays what. The browser is started unmuted with
$PULSE_SINK naming that sink. Every wait is a hang guard, never a speed check (scripts/bench-web times)."""

import base64
import hashlib
import json
import os
import subprocess
import sys
import tempfile
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

    def phone_size_only(self):
        if self.WIDTH > 600:   # the sound and the rewriting do not depend on the page's size
            self.skipTest("checked at the phone size (CI time)")

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

    def test_the_join_between_two_previews_is_heard_without_a_gap(self):
        """Media Source engines: track A's tone turns into B's on the page's sink with no silence longer
        than 150 ms (a correctness bound, not a speed target: scripts/bench-web measures the gap)."""
        self.phone_size_only()
        self.play_from_results("sine", "A Four Forty")
        mark = self.page_recorder.count
        self.tap(self.el("#play-here"))
        self.heard_on_page(440, mark, "Play here on")
        if not self.js("return previewd.playHere.gapless"):
            self.skipTest("no Media Source for AAC in this engine: two elements, swapped at the end")
        status = self.rig.status()
        following = status["nextId"]
        self.wait(lambda: following in self.js("return previewd.playHere.appended"), "the next track appended after the current one")
        nxt = next(i for i in self.rig.queue()["items"] if i["id"] == following)
        self.rig.request("seek", {"position": max(0, status["durationMs"] / 1000 - 1.5)})
        mark = self.page_recorder.count
        heard = self.heard_on_page(TONE[nxt["track"]["trackId"]], mark, "the track after the join")
        recorder = self.page_recorder
        last = None   # the last window of A's tone before B's
        position = mark
        while position + recorder.WINDOW <= heard:
            if recorder.tone(recorder.window(position)) == 440:
                last = position
            position += recorder.WINDOW // 2
        self.assertIsNotNone(last, f"A's tone before the join; heard {recorder.tones_after(mark)}")
        # The longest run of silent 5 ms slices between A's last window and B's first one.
        step = recorder.RATE // 200
        with recorder.lock:
            samples = recorder.samples[last:heard + recorder.WINDOW]
        longest = run = 0
        for at in range(0, len(samples), step):
            silent = recorder.rms(samples[at:at + step]) < recorder.SILENCE_RMS
            run = run + step if silent else 0
            longest = max(longest, run)
        gap_ms = longest * 1000 / recorder.RATE
        self.assertLess(gap_ms, 150, "the join is heard without a gap")
        self.wait(lambda: self.rig.status()["id"] == following, "previewd to follow the page's crossing")
        self.wait(lambda: self.page_item() == following, "the page to report the next item")

    def test_a_preview_the_page_cannot_rewrite_plays_in_an_element(self):
        """MP3 in MP4 (not AAC: mp4.js refuses it) plays through the element path while Play here is on,
        and the track after it through Media Source again; nothing stalls."""
        self.phone_size_only()
        self.play_from_results("fifty", "C# Five Fifty")   # the queue: C# Five Fifty, Twelve Fifty (MP3), Loud Five Fifty
        mark = self.page_recorder.count
        self.tap(self.el("#play-here"))
        self.heard_on_page(550, mark, "Play here on")
        gapless = self.js("return previewd.playHere.gapless")
        mark = self.page_recorder.count
        self.assertEqual(self.rig.ctl("next").returncode, 0)
        mp3 = self.rig.status()
        self.assertEqual(mp3["track"]["trackId"], 5001)
        self.heard_on_page(1250, mark, "the MP3 preview in the page")
        self.wait(lambda: self.page_item() == mp3["id"], "the page to play the MP3 item")
        self.assertFalse(self.js("return previewd.playHere.gapless"), "an element plays it")
        mark = self.page_recorder.count
        self.assertEqual(self.rig.ctl("next").returncode, 0)
        self.heard_on_page(550, mark, "the AAC track after it")
        self.assertEqual(self.js("return previewd.playHere.gapless"), gapless, "Media Source again where the engine has it")

    def test_the_page_rewrites_a_preview_as_ffprobe_reads_it(self):
        """mp4.js, in the browser, on the fixtures: AAC files become fragmented MP4 with every sample
        ffprobe counts in the original and the same length, priming read from the edit list; what is
        not AAC in a plain MP4 is refused (the page plays it in an element instead)."""
        self.phone_size_only()
        rewrite = """
            const [b64] = arguments, done = arguments[arguments.length - 1];
            import('/modules/mp4.js').then((m) => {
              const b = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
              try {
                const t = m.readTrack(b, m.moovRange(b, b.length));
                const half = Math.floor(t.count / 2);
                const parts = [m.initSegment(t), m.mediaSegment(t, b, 0, half, 1), m.mediaSegment(t, b, half, t.count - half, 2)];
                let s = '';
                for (const p of parts) for (const x of p) s += String.fromCharCode(x);
                done({ count: t.count, priming: t.priming, valid: t.valid, timescale: t.timescale, codec: t.codec, mime: t.mime,
                       supported: (window.MediaSource || window.ManagedMediaSource).isTypeSupported(t.mime), out: btoa(s) });
              } catch (e) { done({ error: String(e.message), refused: e instanceof m.Mp4Error }); }
            });"""
        previews = browser_rig.FIXTURES / "previews"
        for name in ("tone-440.m4a", "tone-440-moov-at-end.m4a", "tone-880.m4a", "tone-880-video.m4v", "shape-mp3.m4a", "tone-660-fragmented.m4a"):
            with self.subTest(name):
                original = previews / name
                got = self.driver.execute_async_script(rewrite, base64.b64encode(original.read_bytes()).decode())
                stream = probe(original)
                if stream["codec_name"] != "aac" or name.endswith("fragmented.m4a"):
                    self.assertTrue(got.get("refused"), f"{name}: refused, not rewritten: {got}")
                    continue
                self.assertNotIn("error", got, name)
                self.assertTrue(got["supported"], f"{got['mime']} in this engine's Media Source")
                self.assertEqual(got["count"], int(stream["nb_read_packets"]), "every sample")
                self.assertEqual(got["valid"], int(stream["duration_ts"]), "the length without priming and padding")
                self.assertEqual(got["timescale"], int(stream["time_base"].split("/")[1]))
                with tempfile.NamedTemporaryFile(suffix=".mp4") as out:
                    out.write(base64.b64decode(got["out"]))
                    out.flush()
                    rewritten = probe(Path(out.name))
                    self.assertEqual(int(rewritten["nb_read_packets"]), got["count"], "the fragments hold every sample")
                    decoded = subprocess.run(["ffmpeg", "-v", "error", "-i", out.name, "-f", "null", "-"], capture_output=True, text=True)
                    self.assertEqual((decoded.returncode, decoded.stderr), (0, ""), "the fragments decode cleanly")


def probe(path):
    """ffprobe's view of the file's audio stream, its packets counted."""
    result = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "a:0", "-count_packets", "-show_streams", "-of", "json", str(path)],
                            capture_output=True, text=True, check=True)
    return json.loads(result.stdout)["streams"][0]


sized_cases(PlayHereCase, globals())
del PlayHereCase   # only the sized classes run

if __name__ == "__main__":
    unittest.main()
