""""Play here" in real browsers (Chromium and WebKitGTK, phone and desktop sizes): the page plays the queue
itself from previewd's own bytes, into a null sink of its own ("previewd_web_page", its monitor recorded
beside previewd's), so what is heard tells who plays what. The browser is started unmuted with
$PULSE_SINK naming that sink. Every wait is a hang guard, never a speed check (scripts/bench-web times).
Even loudness is measured with "the even pair", two tones 10 dB apart made when a class starts; the
browser's own pause for a call (interruptions) is simulated, as a headless browser has no audio focus."""

import base64
import hashlib
import json
import os
import shutil
import statistics
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
HEADROOM_DB = 6            # Pages/modules/loudness.js
# Two tones 10 dB apart ("The Even Pair"), made at the start of each class: previewd brings both to its
# target (-16 LUFS), the loud one lowered about 6 dB, the soft one raised about 4: within the page's headroom.
EVEN_PAIR = ((6201, "Loud Half", 550, "12dB", 1.5), (6202, "Soft Half", 660, "2dB", 3))
# Run at the phone's size only (CI time): what is heard and how a preview is rewritten do not depend on the layout.
ONE_SIZE = {"test_the_page_evens_loudness_as_the_box_does", "test_an_interruption_pauses_previewd_here_only",
            "test_an_interruption_here_and_on_the_speakers_pauses_both", "test_an_interruption_without_play_here_leaves_the_box",
            "test_the_join_between_two_previews_is_heard_without_a_gap", "test_a_preview_the_page_cannot_rewrite_plays_in_an_element",
            "test_the_page_rewrites_a_preview_as_ffprobe_reads_it"}


def fixtures_with_the_even_pair():
    """A folder for the stand-in: the committed fixtures (linked) and the even pair, made as
    scripts/make-fixtures makes the level setters, added to the catalog."""
    folder = Path(tempfile.mkdtemp(prefix="previewd-web-even-"))
    previews = folder / "previews"
    previews.mkdir()
    for preview in (browser_rig.FIXTURES / "previews").iterdir():
        (previews / preview.name).symlink_to(preview)
    (folder / "artwork").symlink_to(browser_rig.FIXTURES / "artwork")
    catalog = json.loads((browser_rig.FIXTURES / "catalog.json").read_text())
    model = next(t for t in catalog["results"] if t["trackId"] == 6001)
    for number, (track_id, title, hz, gain, seconds) in enumerate(EVEN_PAIR, 1):
        name = f"even-{hz}.m4a"
        subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi",
                        "-i", f"sine=frequency={hz}:sample_rate=44100:duration={seconds}", "-af", f"volume={gain}",
                        "-ac", "2", "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart", "-map_metadata", "-1",
                        "-fflags", "+bitexact", str(previews / name)], check=True, timeout=60)
        catalog["results"].append(dict(model, artistId=603, collectionId=803, trackId=track_id, artistName="The Even Pair",
                                       collectionName="Headroom", collectionCensoredName="Headroom", trackName=title,
                                       trackCensoredName=title, trackNumber=number, trackCount=len(EVEN_PAIR),
                                       trackTimeMillis=int(seconds * 1000), previewUrl=f"{{{{BASE}}}}/previews/{name}"))
    catalog["resultCount"] = len(catalog["results"])
    (folder / "catalog.json").write_text(json.dumps(catalog))
    return folder


def median(levels, what):
    inner = levels[2:-2]   # not the codec's edges, the join or the volume's change
    if not inner:
        raise AssertionError(f"{what}: too little heard ({levels})")
    return statistics.median(inner)


def probe(path):
    """ffprobe's view of the file's audio stream, its packets counted."""
    result = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "a:0", "-count_packets", "-show_streams", "-of", "json", str(path)],
                            capture_output=True, text=True, check=True)
    return json.loads(result.stdout)["streams"][0]


class PageSink:
    """A second null sink on the rig's PulseAudio, for the page's sound (Recorder reads `server`, `sink`)."""

    def __init__(self, pulse):
        self.server, self.sink = pulse.server, PAGE_SINK
        subprocess.run(["pactl", "--server", pulse.server, "load-module", "module-null-sink", f"sink_name={PAGE_SINK}"],
                       check=True, capture_output=True, timeout=30)


class PlayHereCase(PageCase):
    @classmethod
    def fixtures(cls):
        cls.fixture_dir = fixtures_with_the_even_pair()
        return cls.fixture_dir

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
        if getattr(cls, "fixture_dir", None):
            shutil.rmtree(cls.fixture_dir, ignore_errors=True)

    def setUp(self):
        if self._testMethodName in ONE_SIZE and self.WIDTH > 600:
            self.skipTest("run at the phone's size only: what is heard does not depend on the layout")
        super().setUp()

    def tearDown(self):
        if self.js("return !!document.getElementById('play-here') && document.getElementById('play-here').getAttribute('aria-pressed') === 'true'"):
            self.el("#play-here").click()   # the claim is given back before the next test
        super().tearDown()

    def heard_on_page(self, hz, mark, what):
        found = self.page_recorder.wait_for_tone(hz, mark)
        if found is None:
            element = self.js("const e = previewd.playHere.element(); return e && {item: previewd.playHere.itemId, src: e.src, "
                              "paused: e.paused, time: e.currentTime, ready: e.readyState, network: e.networkState, "
                              "error: e.error && e.error.code, volume: e.volume}")
            self.fail(f"{what}: {hz} Hz not heard in the page; heard {self.page_recorder.tones_after(mark)}; "
                      f"the page's element {element}; previewd {self.rig.status().get('id')}\n{self.rig.logs()}")
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
        after = self.rig.status()
        self.assertIsNone(after.get("playHere"))
        if after["id"] == fourth["id"]:
            self.assertGreaterEqual(after["positionMs"], reached - 300, "the box goes on from where the page was")
        else:   # under load the page reached the track's last moments: the box played them and moved on
            self.assertGreater(reached, fourth["durationMs"] - 2000, f"the box moved on early: {after}")

    def test_the_join_between_two_previews_is_heard_without_a_gap(self):
        """Media Source engines: track A's tone turns into B's on the page's sink with no silence longer
        than 150 ms (a correctness bound, not a speed target: scripts/bench-web measures the gap)."""
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

    # ------------------------------------------------------------ even loudness (issue 53, item 5)

    def test_the_page_evens_loudness_as_the_box_does(self):
        """Two tracks 10 dB apart, played here and on the speakers at once: the page's sink hears them
        as even as the box's does, HEADROOM_DB below it; the page's volume slider lowers the page's
        playback by the step it lowers the box's (previewd's cubic scale)."""
        # The rule (loudness.js), beyond what the pair reaches: a boost past the headroom is cut to it;
        # normalisation off, or nothing known, leaves the volume alone; the volume on previewd's cubic scale.
        rule = self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            import('/modules/loudness.js').then(({ elementVolume: v }) => done([
              v({ gain: { db: -6 }, targetLUFS: -16 }, 100), v({ gain: { db: 3 }, targetLUFS: -16 }, 100),
              v({ gain: { db: 17.6 }, targetLUFS: -16 }, 100), v({ gain: null, targetLUFS: -16 }, 100),
              v({ gain: { db: 0, basis: 'off' }, targetLUFS: null }, 100), v(null, 50), v({ gain: { db: 3 }, targetLUFS: -16 }, 50)]),
              (e) => done(String(e)));""")
        expected = [10 ** (-12 / 20), 10 ** (-3 / 20), 1, 10 ** (-6 / 20), 1, 0.125, 0.125 * 10 ** (-3 / 20)]
        self.assertEqual(len(rule), len(expected), rule)
        for got, want in zip(rule, expected):
            self.assertAlmostEqual(got, want, places=4, msg=f"{rule} != {expected}")

        page, box = self.page_recorder, self.rig.recorder
        self.js("previewd.showScreen('player')")
        self.tap(self.el("#play-here"))
        self.tap(self.el("#here-only"))   # here and on the speakers: both sinks at once
        self.wait(lambda: (self.rig.status().get("playHere") or {}).get("hereOnly") is False, "the claim, here and on the speakers")
        marks = page.count, box.count
        self.assertEqual(self.rig.ctl("search", "even pair").returncode, 0)
        loud = self.heard_on_page(550, marks[0], "the loud track"), self.expect_tone(550, marks[1], "the loud track on the box")
        gains = [self.rig.status()["loudness"]]
        soft = self.heard_on_page(660, loud[0], "the soft track"), self.expect_tone(660, loud[1], "the soft track on the box")
        gains.append(self.rig.status()["loudness"])
        self.assertLess(gains[0]["gain"]["db"], 0, gains)
        self.assertTrue(0 < gains[1]["gain"]["db"] < HEADROOM_DB, f"the soft track's boost is within the headroom: {gains}")

        # A second into the soft track, the page's volume slider goes from 100 to 50.
        page.wait_for(lambda position, _: position >= soft[0] + page.RATE, soft[0])
        turned = page.count, box.count
        self.js("const v = document.getElementById('volume'); v.value = '50';"
                "v.dispatchEvent(new Event('input', {bubbles: true})); v.dispatchEvent(new Event('change', {bubbles: true}));")
        self.wait(lambda: self.rig.status()["volume"] == 50, "previewd's volume at 50")
        ends = page.wait_for_silence(0.3, turned[0]), box.wait_for_silence(0.3, turned[1])
        self.assertNotIn(None, ends, "the soft track ends")

        settle = page.RATE // 2   # the slider's command reaching both (a hang guard's margin, not a speed check)
        heard = {}
        for name, recorder, at in (("page", page, 0), ("box", box, 1)):
            heard[name] = {
                "loud": median(recorder.levels_db(550, loud[at], soft[at]), f"{name}: the loud track"),
                "soft": median(recorder.levels_db(660, soft[at], turned[at]), f"{name}: the soft track"),
                "soft at 50": median(recorder.levels_db(660, turned[at] + settle, ends[at]), f"{name}: the soft track at 50"),
            }
        print(f"\n{type(self).__name__}: heard (dB) {heard}; gains {[g['gain'] for g in gains]}", file=sys.stderr)
        self.assertAlmostEqual(heard["page"]["loud"], heard["page"]["soft"], delta=1.5, msg=f"even in the page: {heard}")
        self.assertAlmostEqual(heard["page"]["loud"] - heard["page"]["soft"], heard["box"]["loud"] - heard["box"]["soft"],
                               delta=1.5, msg=f"as even as on the box: {heard}")
        for track in ("loud", "soft"):
            self.assertAlmostEqual(heard["page"][track] - heard["box"][track], -HEADROOM_DB, delta=1.5,
                                   msg=f"the page plays {HEADROOM_DB} dB below the box: {heard}")
        step = {name: heard[name]["soft"] - heard[name]["soft at 50"] for name in heard}
        self.assertAlmostEqual(step["page"], step["box"], delta=1.5, msg=f"the volume slider's step, page and box: {heard}")
        self.assertGreater(step["page"], 12, f"the page's volume acts on its playback: {heard}")

    # ------------------------------------------------------------ interruptions (issue 53, item 7)
    # A headless browser has no audio focus to lose: the browser's own pause for a call or another app
    # is simulated by pausing the page's element from outside the page's code (WebDriver), as a user
    # agent does (the element's pause(): its `paused` set, a `pause` event fired).

    def interrupt(self):
        self.js("previewd.playHere.element().pause()")

    def state(self):
        return self.rig.status()["state"]

    def test_an_interruption_pauses_previewd_here_only(self):
        self.play_from_results("sine", "A Four Forty")
        self.tap(self.el("#play-here"))
        self.heard_on_page(440, self.page_recorder.count, "Play here on")

        # The media session's pause (a headset, the lock screen): previewd pauses, the page's element
        # with it, and that pause of the page's own is not taken for an interruption (no second toggle).
        self.js("previewd.mediaActions.pause()")
        self.wait(lambda: self.state() == "paused", "the media session's pause to pause previewd")
        self.assertIsNotNone(self.page_recorder.wait_for_silence(0.5, self.page_recorder.count), "the page is silent")
        self.assertEqual(self.state(), "paused", "paused once, not toggled back")
        # Off while paused and on again: what the page paused itself before leaves nothing behind.
        self.tap(self.el("#play-here"))
        self.wait(lambda: self.rig.status().get("playHere") is None, "Play here off")
        self.tap(self.el("#play-here"))
        self.wait(lambda: self.rig.status().get("playHere") is not None, "Play here on again")
        mark = self.page_recorder.count
        self.js("previewd.mediaActions.play()")
        self.heard_on_page(440, mark, "the media session's play")

        # The interruption: previewd shows paused; the page and the box are silent.
        self.interrupt()
        self.wait(lambda: self.state() == "paused", "previewd to pause with the page")
        self.assertIsNotNone(self.page_recorder.wait_for_silence(0.5, self.page_recorder.count), "the page is silent")
        self.assertIsNotNone(self.rig.recorder.wait_for_silence(0.5, self.rig.recorder.count), "the box is silent")
        self.assertEqual(self.state(), "paused")
        self.wait(lambda: "Play" in self.el("#toggle").get_attribute("aria-label"), "the page to show paused")

        # The call over, the system starts the element again by itself (iOS may): previewd plays too.
        mark = self.page_recorder.count
        self.js("previewd.playHere.element().play()")
        self.wait(lambda: self.state() == "playing", "previewd to play with the page")
        self.heard_on_page(440, mark, "the system's resume")

    def test_an_interruption_here_and_on_the_speakers_pauses_both(self):
        self.play_from_results("sine", "A Four Forty")
        self.tap(self.el("#play-here"))
        self.tap(self.el("#here-only"))
        self.wait(lambda: (self.rig.status().get("playHere") or {}).get("hereOnly") is False, "here and on the speakers")
        self.heard_on_page(440, self.page_recorder.count, "Play here on")
        self.expect_tone(440, self.rig.recorder.count, "the speakers too")

        self.interrupt()
        self.wait(lambda: self.state() == "paused", "previewd to pause with the page: one transport")
        self.assertIsNotNone(self.page_recorder.wait_for_silence(0.5, self.page_recorder.count), "the page is silent")
        self.assertIsNotNone(self.rig.recorder.wait_for_silence(0.5, self.rig.recorder.count), "the speakers are silent")
        self.assertEqual(self.state(), "paused")

    def test_an_interruption_without_play_here_leaves_the_box(self):
        self.play_from_results("sine", "A Four Forty")
        self.tap(self.el("#play-here"))
        self.heard_on_page(440, self.page_recorder.count, "Play here on")
        mark = self.rig.recorder.count
        self.tap(self.el("#play-here"))
        self.expect_tone(440, mark, "Play here off: the box plays again")

        # The page's element is idle (paused by the page when it stopped): the browser's pause, and the
        # `pause` event it would fire, reach a page that does not play here.
        self.interrupt()
        self.js("previewd.playHere.element().dispatchEvent(new Event('pause'))")
        box = self.rig.recorder
        mark = box.count
        box.wait_for(lambda position, _: position >= mark + box.RATE, mark)
        heard = {box.tone(box.window(at)) for at in range(mark, mark + box.RATE - box.WINDOW + 1, box.WINDOW)}
        self.assertEqual(heard, {440}, "the box kept playing, a second on")
        self.assertEqual(self.state(), "playing")


sized_cases(PlayHereCase, globals())
del PlayHereCase   # only the sized classes run

if __name__ == "__main__":
    unittest.main()
