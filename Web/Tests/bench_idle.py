"""previewd-web at rest: its wake-ups (voluntary and involuntary context switches of all its threads)
over a window with no page open, and with a page open while previewd is paused; and its RSS.
    /usr/bin/python3 Web/Tests/bench_idle.py [SECONDS] [--browser]
SECONDS defaults to 10; the release binaries are found as Web/Tests/run finds them. The page is a raw
WebSocket, or with --browser the real page in headless Chromium (selenium). Figures only: nothing
here is asserted."""

import glob
import sys
import time

from harness import Stack, Web, WebSocket


def switches(pid):
    """Context switches per thread: {tid: count}."""
    counts = {}
    for path in glob.glob(f"/proc/{pid}/task/*/status"):
        try:
            with open(path) as f:
                counts[path.split("/")[4]] = sum(int(l.split()[1]) for l in f if "ctxt_switches" in l)
        except FileNotFoundError:
            pass
    return counts


def delta(before, after):
    """Switches between two snapshots: of threads alive in both, all of a new thread's, and one for
    each thread that ended (its exit woke it)."""
    total = sum(after[t] - before[t] for t in after if t in before)
    total += sum(after[t] for t in after if t not in before)
    total += sum(1 for t in before if t not in after)
    return total


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS"))


def window(pid, seconds):
    before = switches(pid)
    time.sleep(seconds)
    return delta(before, switches(pid))


def open_browser(url):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--mute-audio", "--window-size=390,844",
                     "--disable-background-networking", "--disable-component-update", "--no-first-run"):
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.get(url)
    return driver


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    browser = "--browser" in sys.argv
    seconds = float(args[0]) if args else 10.0
    stack = Stack()
    stack.start()
    web = Web(stack).start()
    pid = web.proc.pid
    page = None
    try:
        time.sleep(1)  # let start-up settle
        idle = window(pid, seconds)
        watcher = WebSocket(web)  # to know when playing starts; counted like a page
        watcher.receive()
        if browser:
            page = open_browser(web.origin + "/")
            time.sleep(2)  # the page connects and catches up
        # A track played, then paused: the page open, nothing moving.
        web.api({"id": 1, "cmd": "search", "args": {"term": "sine", "limit": 3}})
        watcher.receive_until(lambda m: m.get("event") == "state" and m.get("state") == "playing")
        web.api({"id": 2, "cmd": "pause"})
        time.sleep(1)
        paused = window(pid, seconds)
        web.api({"id": 3, "cmd": "resume"})
        playing = window(pid, min(seconds, 5))
        kind = "the real page in Chromium" if browser else "a WebSocket"
        print(f"previewd-web wake-ups in {seconds:g} s: no page open {idle}; {kind} open and paused {paused}; "
              f"while playing (position ticks relayed) {playing} in {min(seconds, 5):g} s; RSS {rss_kib(pid)} KiB")
        watcher.close()
    finally:
        if page:
            page.quit()
        web.stop()
        stack.stop()


if __name__ == "__main__":
    main()
