"""The report: medians of rounds (a round that measured nothing left out), the raw rounds on stderr,
the comparison tables' rows (labels, units, figures, ratios), and a section of docs/PERFORMANCE.md
rewritten in place (scripts/plot-performance finds rows by these labels)."""
import json, os, statistics, sys

from .process import MEMORY
from .rig import QUEUED, ROOT

PERFORMANCE = os.path.join(ROOT, "docs/PERFORMANCE.md")

def median(values):
    """The median of the values that are not None; None when there are none."""
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None

def medians(rows):
    """{row: median} of {row: [a value per round]}."""
    return {k: median(vs) for k, vs in rows.items()}

def raw(title, rows, digits=2):
    """The rounds themselves, on stderr (the tables show medians)."""
    print(f"{title}: " + json.dumps({k: [None if v is None else round(v, digits) for v in vs] for k, vs in rows.items()}),
          file=sys.stderr)

def number(v, digits=1):
    return "n/a" if v is None else f"{v:.{digits}f}"

def ratio(a, b):
    """a / b as the tables write it."""
    return "n/a" if a is None or b is None or b == 0 else f"{a / b:.2f}"

def units():
    """Each row's unit, in the tables' order."""
    table = {"start": "ms", "next": "ms", "prev": "ms", "pause": "ms", "gap windows": "× 10 ms", "cpu s / 10 s": "s",
             "cpu paused": "s", "wake-ups idle": "/ s", "wake-ups paused": "/ s", "wake-ups playing": "/ s",
             "start handed": "ms", "next handed": "ms", "prev handed": "ms"}
    table.update({f"{m} {n}": "MiB" for n in QUEUED for m in MEMORY})
    return table

def figure(k, v):
    """A row's value as the tables write it."""
    return number(v, 2 if ("handed" in k or "cpu" in k or k in ("wake-ups idle", "wake-ups paused")) else 1)

def label(k):
    """A row's label (scripts/plot-performance finds rows by these)."""
    fixed = {"start": "start (command → audible)", "next": "next (command → audible)", "prev": "prev (command → audible)",
             "pause": "pause (command → silent)", "gap windows": "auto-advance: silent 10 ms windows between tracks",
             "cpu s / 10 s": "CPU seconds over 10 s of playback", "cpu paused": "CPU seconds over 10 s paused",
             "wake-ups idle": "wake-ups: context switches of all threads, idle (nothing queued)",
             "wake-ups paused": "wake-ups: context switches of all threads, paused",
             "wake-ups playing": "wake-ups: context switches of all threads, playing",
             "start handed": "start: command → first PCM frame handed to the stream (previewd's own clock)",
             "next handed": "next: command → first PCM frame handed to the stream (previewd's own clock)",
             "prev handed": "prev: command → first PCM frame handed to the stream (previewd's own clock)"}
    if k in fixed: return fixed[k]
    m, n = k.rsplit(" ", 1)
    return f"{m}, playing, {n} queued"

def write_section(marker, body, following=None):
    """Writes `marker` (a "\\n## heading\\n" line) and `body` as a section of docs/PERFORMANCE.md: in place
    of the section with that heading (up to the next heading), else just before the heading `following`,
    else at the end."""
    text = open(PERFORMANCE).read() if os.path.exists(PERFORMANCE) else "# Performance\n"
    if marker in text:
        before, rest = text.split(marker, 1)
        after = rest[rest.index("\n## "):] if "\n## " in rest else ""
    elif following and following in text:
        before, rest = text.split(following, 1)
        after = following + rest
    else:
        before, after = text, ""
    with open(PERFORMANCE, "w") as f: f.write(before.rstrip("\n") + "\n" + marker + body + after)
