"""previewd-web at rest: its wake-ups (voluntary and involuntary context switches of all its threads)
over a window with no page open, and with a page open while previewd is paused; and its RSS.
    python3 Web/Tests/bench_idle.py [SECONDS]      (default 10; uses the release binaries as Web/Tests/run does)
Figures only: nothing here is asserted."""

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


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    stack = Stack()
    stack.start()
    web = Web(stack).start()
    pid = web.proc.pid
    try:
        time.sleep(1)  # let start-up settle
        idle = window(pid, seconds)
        ws = WebSocket(web)
        ws.receive()
        # A track played, then paused: the page open, nothing moving.
        ws.send({"id": 1, "cmd": "search", "args": {"term": "sine", "limit": 3}})
        ws.answer(1)
        ws.receive_until(lambda m: m.get("event") == "state" and m.get("state") == "playing")
        ws.send({"id": 2, "cmd": "pause"})
        ws.answer(2)
        time.sleep(1)
        paused = window(pid, seconds)
        ws.send({"id": 3, "cmd": "resume"})
        ws.answer(3)
        playing = window(pid, min(seconds, 5))
        print(f"previewd-web wake-ups in {seconds:g} s: no page open {idle}, a page open and paused {paused}; "
              f"while playing (position ticks relayed) {playing} in {min(seconds, 5):g} s; RSS {rss_kib(pid)} KiB")
        ws.close()
    finally:
        web.stop()
        stack.stop()


if __name__ == "__main__":
    main()
