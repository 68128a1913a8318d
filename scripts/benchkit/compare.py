"""bench-compare's sections, one function each (scripts/bench-compare's docstring says what each
measures): a run of the rig, the rounds of each player, the table printed and written into its
section of docs/PERFORMANCE.md. The network and probe sections run their rounds inside
Tests/NetworkRig/netrig.py, through bench-compare's --network-inner and --probes-inner."""
import json, os, subprocess, sys, time

from .players import (IndexingPreviewd, Mpv, PreviewdMPD, MPDReference, Previewd, PreviewdWithoutNormalization,
                      TappingMpv, TappingPreviewd, TappingPreviewdNoHeads)
from .report import figure, label, median, number, ratio, units, write_section
from .rig import DELAY_MS, ROOT, TAP_SHOWN, Rig, sh
from .rounds import (START_ROWS, TAP_AT, TAP_READ, TAP_SEARCH, heads_cost, measure, measure_adds, measure_start,
                     measure_tap)

FRONT = os.path.join(ROOT, "scripts", "bench-compare")   # run again inside the network rig
NETWORK_RTTS = [int(r) for r in os.environ.get("BENCH_RTTS", "40 100").split()]   # round trips of the network section, ms
FIRST_BYTE_MS = 20             # the CDN's wait before a preview's first byte
COMPARE = "\n## previewd beside mpv (scripts/bench-compare)\n"

def mpv(repeats):
    """The main run: previewd, previewd --normalize off and mpv, the network section, bench-decode;
    writes their sections and draws docs/performance.png."""
    with Rig(deps="mpv gnuplot-nox") as rig:
        ours = measure(Previewd, *rig.parts, repeats)
        plain = measure(PreviewdWithoutNormalization, *rig.parts, repeats)
        ref = measure(Mpv, *rig.parts, repeats)
        network_rows = network_table(rig, repeats)
    lines = [f"Preview server waits {DELAY_MS} ms before each preview answer. Medians of {repeats} rounds.", "",
             "| measure | previewd | previewd, `--normalize off` | mpv | previewd / mpv |", "|---|---:|---:|---:|---:|"]
    for k in units():
        a, b, c = ours[k], ref[k], plain[k]
        fa, fb, fc = (figure(k, v) for v in (a, b, c))
        lines.append(f"| {label(k)} ({units()[k]}) | {fa} | {fc} | {fb} | {ratio(a, b)} |")
    table = "\n".join(lines)
    print(table)
    print("raw rounds are printed on stderr", file=sys.stderr)
    decode = subprocess.run([os.path.join(ROOT, "scripts/bench-decode"), "7"], stdout=subprocess.PIPE, text=True).stdout
    print(decode)
    cpu = open("/proc/cpuinfo").read().split("model name")[1].split("\n")[0].strip(": \t")
    write_section(COMPARE, f"\nMachine: {os.cpu_count()} × {cpu}; mpv {sh('mpv', '--version').split()[1]}; "
                  f"date {time.strftime('%Y-%m-%d', time.gmtime())}. Reproduce: `scripts/bench-compare {repeats}`.\n\n"
                  "![previewd beside mpv: latency, CPU, wake-ups, memory](performance.png)\n\n"
                  "Audible is measured on a recording of the null sink's monitor (parec, 5 ms latency), so every "
                  "latency includes the same recording path for both players. Latencies are counted in 10 ms "
                  "windows: 0 means the change is already in the first window after the command.\n\n" + table + "\n\n" + decode.strip() + "\n")
    print(network_rows)
    write_network_doc(network_rows, repeats)
    subprocess.run([os.path.join(ROOT, "scripts/plot-performance")], check=True)

def ab(base, repeats):
    """previewd of `base` (a release folder) and of this tree beside mpv, one run; prints the table."""
    with Rig(deps="mpv") as rig:
        before = measure(Previewd, base, *rig.parts[1:], repeats)
        after = measure(Previewd, *rig.parts, repeats)
        ref = measure(Mpv, *rig.parts, repeats)
    print(f"Medians of {repeats} rounds; before: {base}, after: {rig.bins}.\n")
    print("| measure | previewd before | previewd after | mpv | after / before |\n|---|---:|---:|---:|---:|")
    for k in units():
        a, b, c = before[k], after[k], ref[k]
        print(f"| {label(k)} ({units()[k]}) | {figure(k, a)} | {figure(k, b)} | {figure(k, c)} | {ratio(b, a)} |")

def start(repeats):
    """The start rows in 1 ms steps beside --normalize off and mpv."""
    with Rig(deps="mpv") as rig:
        got = {c.name: measure_start(c, *rig.parts, repeats) for c in (Previewd, PreviewdWithoutNormalization, Mpv)}
    labels = {"search -50": "search → audible, -50 dBFS (ms, 1 ms steps)", "search -40": "search → audible, -40 dBFS (ms, 1 ms steps)",
              "next -50": "next → the new track at -50 dBFS (ms; ±5 ms: a 10 ms tone window)",
              "next -40": "next → the new track at -40 dBFS (ms; ±5 ms: a 10 ms tone window)",
              "pause -50": "pause → below -50 dBFS (ms, 1 ms steps)", "search handed": "search → first frame handed (previewd's clock, ms)"}
    lines = [f"Fresh players, {repeats} rounds each, medians; the preview server waits {DELAY_MS} ms before each preview answer.", "",
             "| measure | previewd | previewd, `--normalize off` | mpv |", "|---|---:|---:|---:|"]
    for k in START_ROWS:
        lines.append(f"| {labels[k]} | {number(got['previewd'][k])} | {number(got['previewd --normalize off'][k])} | {number(got['mpv'][k])} |")
    table = "\n".join(lines)
    print(table)
    write_section("\n## The start, in 1 ms steps (scripts/bench-compare start)\n",
                  f"\nReproduce: `scripts/bench-compare start {repeats}`. Onsets in 1 ms windows of the null sink's monitor against "
                  "two levels, so a fade-in shows as the gap between them: previewd ramps every onset and stop over 3 ms "
                  "(`OutputSequencer+Ramp.swift`), and a cold start plays at its provisional gain from its first frame.\n\n" + table + "\n")

def tap(repeats):
    """A tap on a result beside `next`, four ways, and what a look costs with and without heads."""
    players = (TappingPreviewd, IndexingPreviewd, TappingPreviewdNoHeads, TappingMpv)
    with Rig(deps="mpv") as rig:
        got = {c.name: measure_tap(c, *rig.parts, repeats) for c in players}
        costs = {(c.name, n): [heads_cost(c, *rig.parts, n) for _ in range(repeats)]
                 for c in (TappingPreviewd, TappingPreviewdNoHeads) for n in (TAP_SEARCH, TAP_SHOWN)}
    lines = [f"Fresh players, {repeats} rounds each, medians; the preview server waits {DELAY_MS} ms before each preview answer; "
             f"a search of {TAP_SEARCH}, {TAP_READ:g} s, a tap on result {TAP_AT}, 2 s, `next`. Audible: the first 10 ms window of the "
             "new track's tone on the null sink's monitor.", "",
             "| player | tap → audible (ms) | next → audible (ms) | tap − next (ms) | tap → first frame handed (previewd's clock, ms) |",
             "|---|---:|---:|---:|---:|"]
    for c in players:
        g = got[c.name]
        gap = None if g["tap"] is None or g["next"] is None else g["tap"] - g["next"]
        lines.append(f"| {c.name} | {number(g['tap'])} | {number(g['next'])} | {number(gap)} | {number(g['tap handed'])} |")
    lines += ["", f"What a look (`\"queue\": false`, nothing plays) costs 3 s after it, medians of {repeats} fresh daemons: "
              "the heads held and their bytes (`memory`'s heads store: every preview byte the look fetched; the catalog "
              "answer is the same either way), and previewd's anonymous memory (each head also holds a 500 ms PCM ring).", "",
              "| previewd | results shown | heads | preview bytes fetched | anonymous MiB |", "|---|---:|---:|---:|---:|"]
    for (name, n), rounds in costs.items():
        med = lambda k: median([r[k] or 0 for r in rounds])
        lines.append(f"| {name.split(',')[0]} | {n} | {med('heads'):.0f} | {med('head bytes'):.0f} | {med('anonymous') / 2**20:.1f} |")
    table = "\n".join(lines)
    print(table)
    marker = ("\n## A tap on a result (scripts/bench-compare tap)\n" if TAP_READ == 2.5 else
              f"\n## A tap {TAP_READ:g} s after the answer (BENCH_TAP_READ={TAP_READ:g} scripts/bench-compare tap)\n")
    write_section(marker, f"\nReproduce: `{'' if TAP_READ == 2.5 else f'BENCH_TAP_READ={TAP_READ:g} '}scripts/bench-compare tap {repeats}` (date {time.strftime('%Y-%m-%d', time.gmtime())}). "
                  "The heads (issue 47): previewd fetches the first 64 KiB of the first 8 results of an answer by range "
                  "request and decodes them to their first frames, so a tap starts from memory as `next` does.\n\n" + table + "\n")

def mpd(repeats):
    """previewd through its MPD port beside Debian's MPD; writes its section of docs/PERFORMANCE.md."""
    with Rig(deps="mpd") as rig:
        ours = measure(PreviewdMPD, *rig.parts, repeats)
        ref = measure(MPDReference, *rig.parts, repeats)
        ours.update(measure_adds(PreviewdMPD, *rig.parts, repeats))
        ref.update(measure_adds(MPDReference, *rig.parts, repeats))
    version = sh("mpd", "--version").split("\n")[0]
    lines = [f"{version}. Preview server waits {DELAY_MS} ms before each preview answer (previewd only: MPD reads local "
             f"files). Medians of {repeats} rounds.", "",
             "| measure | previewd, through MPD's protocol | MPD | previewd / MPD |", "|---|---:|---:|---:|"]
    for k in units():
        if "handed" in k: continue
        a, b = ours[k], ref[k]
        lines.append(f"| {label(k)} ({units()[k]}) | {figure(k, a)} | {figure(k, b)} | {ratio(a, b)} |")
    seen, mpd_adds = ours.get("adds seen"), ref.get("adds seen")
    lines.append(f"| 200 adds in one command list (ms): previewd of tracks a search answered, MPD of local files | {number(seen)} | "
                 f"{number(mpd_adds)} | {'n/a' if not seen or not mpd_adds else f'{seen / mpd_adds:.2f}'} |")
    lines.append(f"| catalog calls for those 200 adds | {number(ours.get('adds seen calls'), 0)} | n/a | |")
    lines.append(f"| 200 adds of ids not seen before, one command list (ms) | {number(ours.get('adds unseen'))} | n/a | |")
    lines.append(f"| catalog calls for those 200 adds (one lookup for the unseen ids) | {number(ours.get('adds unseen calls'), 0)} | n/a | |")
    table = "\n".join(lines)
    print(table)
    write_section("\n## previewd beside MPD (scripts/bench-compare mpd)\n",
                  f"\nReproduce: `scripts/bench-compare mpd {repeats}`. Both are driven with the same MPD commands, "
                  "each on one held connection to its own port (previewd's Unix socket, MPD's TCP port on loopback): start is "
                  "`clear`, `searchadd \"(any contains 'long tones')\"` (previewd: a catalog search through the stand-in) or `add` "
                  "of the local files (MPD), and `play 0` in one command list; then `next`, `previous`, `pause 1`. Audible is "
                  "measured on the null sink's monitor as below.\n\n" + table + "\n", following=COMPARE)

def in_netrig(rig, rtt, inner, repeats, env=(), netrig=()):
    """Runs bench-compare `inner` (--network-inner, --probes-inner) inside the network rig at `rtt`, on
    `rig`'s build, fixtures and null sink; returns the JSON line it printed last."""
    done = subprocess.run(["unshare", "-n", sys.executable, os.path.join(ROOT, "Tests/NetworkRig/netrig.py"),
                           "--standin", os.path.join(rig.bins, "itunes-standin"), "--catalog", rig.catalog, "--previews", rig.clips,
                           "--rtt-ms", str(rtt), "--first-byte-ms", str(FIRST_BYTE_MS), *netrig, "--",
                           sys.executable, FRONT, inner, str(repeats)],
                          env=dict(os.environ, BENCH_BINS=rig.bins, PULSE_SERVER=rig.server, BENCH_SINK=rig.sink, **dict(env)),
                          stdout=subprocess.PIPE, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])

def network_table(rig, repeats):
    """Runs `rounds.network_inner` in the rig at each round-trip time; the table as Markdown."""
    results = {rtt: in_netrig(rig, rtt, "--network-inner", repeats) for rtt in NETWORK_RTTS}
    lines = [f"TLS on both hosts, the CDN's first byte after {FIRST_BYTE_MS} ms. Medians of {repeats} rounds.", "",
             "| measure | " + " | ".join(f"RTT {r} ms: previewd | RTT {r} ms: mpv" for r in NETWORK_RTTS) + " |",
             "|---|" + "---:|" * (2 * len(NETWORK_RTTS))]
    def row(title, ours, ref=None, digits=0):
        cells = []
        for r in NETWORK_RTTS:
            cells += [number(results[r][ours], digits), number(results[r][ref], digits) if ref else "–"]
        lines.append(f"| {title} | " + " | ".join(cells) + " |")
    row("cold start: search → audible, fresh daemon (ms); mpv: an idle mpv given the preview's URL", "cold", "mpv")
    row("cold start: search → first frame handed to the stream (previewd's clock, ms)", "cold handed")
    row("warm start: a second search 3 s later → audible (ms)", "warm")
    row("warm start: search → first frame handed to the stream (previewd's clock, ms)", "warm handed")
    row("next → audible (ms)", "next")
    row("prev → audible (ms)", "prev")
    row("connections open, paused after both searches (API + CDN)", "open connections")
    row("wake-ups paused, connections kept (/ s)", "wake-ups paused", digits=2)
    row("wake-ups stopped, connections kept (/ s)", "wake-ups stopped", digits=2)
    targets = "; ".join(f"RTT {r}: cold ≤ {4 * r + FIRST_BYTE_MS + 15} ms, warm ≤ {2 * r + FIRST_BYTE_MS + 15} ms"
                        for r in NETWORK_RTTS)
    lines += ["", f"What the network allows plus 15 ms: {targets}."]
    return "\n".join(lines)

def network(repeats):
    with Rig(deps="mpv", standin=False) as rig:
        table = network_table(rig, repeats)
    print(table)
    write_network_doc(table, repeats)

def write_network_doc(table, repeats):
    write_section("\n## On a network: pre-connect and warm paths (scripts/bench-compare network)\n",
                  f"\nReproduce: `scripts/bench-compare network {repeats}` (as root: it makes a network namespace). "
                  "previewd opens the preview host's connection while the search is in flight, keeps connections, DNS answers and "
                  "TLS sessions warm (`--keep-warm`, 120 s), and mpv is given the preview's URL. Audible is measured on the null "
                  "sink's monitor, as below. The rig has a cost of its own, in every row: its proxies and TLS terminators are "
                  "Python (asyncio, the ssl module), a few milliseconds per traversal; mpv's row shows it (3 round trips and "
                  "the first byte allowed, about 30 ms more measured), and previewd's cold start is that plus the one round "
                  "trip its search needs first. next and prev are counted in 10 ms windows that must hold the new tone ten times stronger than any other: since a skip crossfades over 3 ms (issue 37), a window that begins just before the skip is heard counts as the next one, so they read 0 or 10 (in 1 ms steps, `scripts/bench-compare start`, the new track is at -40 dBFS 0–2 ms after the command).\n\n" + table + "\n",
                  following="\n## previewd beside mpv")

PROBE_CASES = [("none", "no pre-connect (no --preview-host)"), ("ok", "probe answered 200, kept"),
               ("notfound", "probe answered 404, kept"), ("close501", "probe answered 501 + Connection: close"),
               ("silent", "probe never answered"), ("reset", "probe's connection reset"),
               ("activated close501", "socket-activated: the API's and the CDN's probes answered 501 + close"),
               ("activated none", "socket-activated, --keep-warm 0 (no pre-connect)")]

def probes_table(rig, repeats):
    """Runs `rounds.probes_inner` in the rig for each probe case at each round-trip time; the tables as Markdown."""
    results = {}
    for rtt in NETWORK_RTTS:
        for case, _ in PROBE_CASES:
            env = {}
            answer = case.split()[-1]
            if case == "none": env.update(BENCH_NO_PRECONNECT="1", BENCH_WITH_MPV="1")
            if case.startswith("activated "): env.update(BENCH_ACTIVATED="1")   # previewd probes both origins as it starts
            if case == "activated none": env.update(BENCH_PROBED_EXTRA="--keep-warm 0")
            results[(rtt, case)] = in_netrig(rig, rtt, "--probes-inner", repeats, env, ["--probe-answer", "ok" if answer == "none" else answer])
    def f(v): return number(v, 0)
    lines = [f"TLS on both hosts, the CDN's first byte after {FIRST_BYTE_MS} ms; a fresh daemon per round, medians of {repeats}. "
             "Audible: the first 10 ms window of the tone (and, in brackets, the first 1 ms window at -50 dBFS).", "",
             "| cold start: search → audible (ms) | " + " | ".join(f"RTT {r} ms" for r in NETWORK_RTTS) + " |",
             "|---|" + "---:|" * len(NETWORK_RTTS)]
    for case, title in PROBE_CASES:
        cells = [f"{f(results[(r, case)]['cold'])} ({f(results[(r, case)]['cold -50'])})" for r in NETWORK_RTTS]
        lines.append(f"| {title} | " + " | ".join(cells) + " |")
    lines.append("| mpv given the preview's URL (fresh mpv) | " + " | ".join(f(results[(r, 'none')]['mpv']) for r in NETWORK_RTTS) + " |")
    for case in ("ok", "none", "close501", "activated close501", "activated none"):
        lines += ["", f"Timeline of a cold start, {dict(PROBE_CASES)[case]} (previewd's log at debug level; ms since the search, medians):", "",
                  "| step | " + " | ".join(f"RTT {r} ms" for r in NETWORK_RTTS) + " | connection (last round) |", "|---|" + "---:|" * len(NETWORK_RTTS) + "---|"]
        names = []
        for r in NETWORK_RTTS:
            for n in results[(r, case)]["timeline"]:
                if n not in names: names.append(n)
        for n in names:
            cells = [f"{results[(r, case)]['timeline'][n][0]:.1f}" if n in results[(r, case)]["timeline"] else "–" for r in NETWORK_RTTS]
            detail = results[(NETWORK_RTTS[-1], case)]["timeline"].get(n, (0, ""))[1]
            lines.append(f"| {n} | " + " | ".join(cells) + f" | {detail} |")
    print("probes results: " + json.dumps({f"{r} {c}": v for (r, c), v in results.items()}), file=sys.stderr)
    return "\n".join(lines)

def probes(repeats):
    with Rig(deps="mpv", standin=False) as rig:
        table = probes_table(rig, repeats)
    print(table)
    write_section("\n## The pre-connect's probe, and a cold start's timeline (scripts/bench-compare probes)\n",
                  f"\nReproduce: `scripts/bench-compare probes {repeats}` (as root). The stand-in behind both hosts answers the pre-connect's "
                  "`HEAD /` as edges do (`itunes-standin --probe-answer`); a request never waits for a probe (`CurlLoop`), so a probe "
                  "that is closed, reset or never answered costs nothing, and one answered with any status and kept gives the "
                  "preview its connection. The socket-activated rows probe the API's origin too (previewd started by the search's own "
                  "connection, systemd-socket-activate as previewd.socket; the time includes previewd's start), so they show that the "
                  "search never waits on, or rides on, the API probe's connection that the server closes. The timelines are previewd's own log (`--verbose`): libcurl's connect and TLS times, "
                  "then previewd's clock. The rig's TLS terminators and delay proxies are one Python process for both hosts: a "
                  "probe's handshake there can delay the search's answer by a few milliseconds.\n\n" + table + "\n")
