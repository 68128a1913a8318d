// The page's gapless player: ONE media element fed by a Media Source (ManagedMediaSource where only
// that exists: Safari on iOS 17.1+), each preview appended on one timeline right after the one before
// it, its encoder priming and padding cut by the append window (mp4.js rewrites previewd's plain m4a
// as fragmented MP4 in the page). The element is started once and never swapped, so a track's end is
// heard as the next one's first sample, and a tap costs the fetch and an append, not an element's
// start.
//
// The element's time spans every track appended: each track is a segment [start, end) of it, and the
// track playing is the segment the element's time is in. The next one is appended ahead while the
// current plays, so the element plays on into it without any script (a locked iPhone suspends the
// page's JavaScript; the element keeps playing what was appended, and its time tells the page where
// it is when it wakes). At most two tracks are buffered: what has played is removed at each crossing.
import { Mp4Error, initSegment, mediaSegment, moovRange, readTrack, samplesWithin, warmInit } from './mp4.js';

/** The item's audio could not be had at all (previewd-web answered an error, or no answer): unlike a
 *  preview the page cannot rewrite (Mp4Error) or append, an element would fare no better. */
export class AudioMissing extends Error {}

const Source = typeof MediaSource === 'function' ? MediaSource
  : typeof ManagedMediaSource === 'function' ? ManagedMediaSource : null;   // eslint-disable-line no-undef
/** A preview is ~1 MB (30 s of AAC); anything far larger is not held in the page twice over. */
const MAX_BYTES = 32 << 20;
/** The time the crossing timer allows for a track's last frame (its own end is rarely a whole frame). */
const END_SLACK = 0.05;

/** True where the engine has a Media Source that takes AAC in fragmented MP4. */
export function gaplessSupported() {
  try { return !!Source && Source.isTypeSupported('audio/mp4; codecs="mp4a.40.2"'); } catch (e) { return false; }
}

/** One media element, a Media Source behind it, and the tracks appended to it.
 *  `hooks`: crossed(fromId, toId) at a track's end into the next one appended; ended(id) at the end
 *  of the last one appended; failed(id, error) for a track that could not be had (AudioMissing) or
 *  not rewritten or appended (anything else: the page plays it in an element instead); time() at the
 *  element's every time change. */
export class Gapless {
  constructor(hooks) {
    this.hooks = hooks;
    this.element = new Audio();
    this.element.preload = 'auto';
    this.element.disableRemotePlayback = true;   // ManagedMediaSource plays only without AirPlay, or with an alternative source
    this.source = new Source();
    this.element.src = URL.createObjectURL(this.source);
    this.opened = new Promise((resolve) => this.source.addEventListener('sourceopen', resolve, { once: true }));
    this.buffer = null;       // the SourceBuffer, made with the first track's type
    this.mime = null;
    this.segments = [];       // {id, start, end, ready, abort}: what the element's timeline holds, in order
    this.pending = null;      // a track jumped to, not yet appended (the element still plays the one before)
    this.current = null;      // the segment the element's time was last in
    this.starting = Promise.resolve();   // the last jump's first samples in (or its failure)
    this.ops = Promise.resolve();   // the buffer's operations, one at a time
    this.timer = 0;
    for (const name of ['timeupdate', 'seeked', 'waiting', 'playing']) this.element.addEventListener(name, () => this.tick());
    // The decoder and the output set up now (an AAC-LC init segment), not at the first tap.
    this.run(async () => {
      await this.opened;
      if (this.buffer) return;
      this.mime = 'audio/mp4; codecs="mp4a.40.2"';
      this.buffer = this.source.addSourceBuffer(this.mime);
      await this.done(() => this.buffer.appendBuffer(warmInit()));
    }).catch(() => {});
  }

  /** The queue item the page hears now (the one jumped to, once jumped). */
  get itemId() { return this.pending ? this.pending.id : this.current ? this.current.id : null; }

  /** Seconds into the item heard (the element's time less where its segment starts). */
  position() {
    if (this.pending) return this.pending.at;
    return this.current ? Math.max(0, this.element.currentTime - this.current.start) : 0;
  }

  /** The item's length in seconds, once its moov was read. */
  duration() {
    const segment = this.pending || this.current;
    return segment && isFinite(segment.end) ? segment.end - segment.start : NaN;
  }

  /** True when the item heard ends within `seconds` (and plays). */
  endsWithin(seconds) {
    const s = this.current;
    return !this.pending && !this.element.paused && !!s && isFinite(s.end) && s.end - this.element.currentTime < seconds;
  }

  /** True when `id` is appended (or loading) right after the item heard. */
  upcoming(id) {
    const i = this.segments.indexOf(this.current);
    return i >= 0 && this.segments[i + 1] !== undefined && this.segments[i + 1].id === id;
  }

  /** Plays `id` from `at` seconds, now: its bytes are fetched and appended after everything the
   *  timeline holds, and the element seeks there once its first samples are in (until then it plays
   *  on what it had). What was appended before is removed then. */
  jump(id, at) {
    const next = this.current ? this.segments[this.segments.indexOf(this.current) + 1] : undefined;
    if (!this.pending && next && next.id === id && isFinite(next.end)) {
      // Already appended after the one heard (previewctl next, the media session's nexttrack): a seek.
      for (const s of this.segments.splice(this.segments.indexOf(next) + 1)) s.abort.abort();
      this.segments = [next];
      this.current = next;
      this.remove(0, next.start - 0.1);
      this.seek(at || 0);
      performance.mark('here-seek');
      this.starting = Promise.resolve();
      return;
    }
    for (const s of this.segments) s.abort.abort();
    if (this.pending) this.pending.abort.abort();
    const last = this.segments[this.segments.length - 1];
    // Nothing on the timeline (previewd was stopped): the track is put where the element waits, so it
    // plays on without a seek (its first 10 ms fall before that time). Else after everything there.
    const idle = !this.pending && !last && !this.element.paused;
    const start = idle ? Math.max(0, this.element.currentTime - 0.01)
      : Math.ceil(Math.max(last && isFinite(last.end) ? last.end : 0, this.element.currentTime)) + 1;
    const segment = this.segment(id, start);
    segment.at = Math.max(0, at || 0);
    this.pending = segment;
    performance.mark('here-jump');   // scripts/bench-web: the tap's path
    let started;
    this.starting = new Promise((resolve) => { started = resolve; });
    segment.ready.catch(started);   // a failed or replaced jump holds nothing up
    this.load(segment, () => {
      started();
      if (this.pending !== segment) return;
      this.pending = null;
      const played = this.segments;
      this.segments = [segment];
      this.current = segment;
      const at = segment.start + Math.min(segment.at, Math.max(0, segment.end - segment.start - END_SLACK));
      if (!idle || Math.abs(this.element.currentTime - at) > 0.05) this.element.currentTime = at;
      performance.mark('here-seek');
      if (played.length) this.remove(0, start - 0.1);
      if (segment.then !== undefined) this.ahead(segment.then);
    });
  }

  /** Appends `id` after the item heard (what plays at its end: the next track, or the same one again
   *  under repeat one), replacing another one appended there; null: nothing after it. */
  ahead(id) {
    const base = this.pending || this.current;
    if (!base) return;
    if (this.pending) { base.then = id; return; }   // appended after the jump's track is in
    const i = this.segments.indexOf(base);
    const after = this.segments[i + 1];
    if (after && after.id === id) return;
    if (after) {
      for (const s of this.segments.splice(i + 1)) s.abort.abort();
      this.remove(after.start, Infinity);
    }
    if (id === null) return;
    base.ready.then(() => {
      if (this.segments[this.segments.length - 1] !== base) return;
      const next = this.segment(id, base.end);
      this.segments.push(next);
      this.load(next, null);
    }, () => {});
  }

  /** Seeks within the item heard. */
  seek(seconds) {
    if (this.pending) { this.pending.at = seconds; return; }
    const s = this.current;
    if (!s) return;
    this.element.currentTime = s.start + Math.max(0, Math.min(seconds, s.end - s.start - END_SLACK));
  }

  /** Nothing to play (previewd stopped): everything appended goes, and the element, still started,
   *  waits silently at its time for the next track. */
  idle() {
    for (const s of this.segments) s.abort.abort();
    if (this.pending) this.pending.abort.abort();
    this.segments = []; this.pending = this.current = null;
    this.remove(0, Infinity);
  }

  /** Lets go of everything (Play here off). */
  close() {
    clearTimeout(this.timer);
    for (const s of this.segments) s.abort.abort();
    if (this.pending) this.pending.abort.abort();
    this.segments = []; this.pending = this.current = null;
    this.element.pause();
    const url = this.element.src;
    this.element.removeAttribute('src');
    this.element.load();
    URL.revokeObjectURL(url);
  }

  segment(id, start) {
    const abort = new AbortController();
    let settle;
    const ready = new Promise((resolve, reject) => { settle = { resolve, reject }; });
    ready.catch(() => {});
    return { id, start, end: Infinity, ready, settle, abort, at: 0, then: undefined };
  }

  /** Fetches the item's bytes and appends them as they come: the init segment once its moov is in
   *  (at the file's end: the whole file first), then the samples each chunk completes. `first` runs
   *  after the first samples are in. A failure calls hooks.failed, never leaves the element waiting. */
  async load(segment, first) {
    const { signal } = segment.abort;
    try {
      const answer = await fetch(`/audio/item/${segment.id}`, { signal, credentials: 'same-origin' })
        .catch((e) => { throw signal.aborted ? e : new AudioMissing(String(e)); });
      if (!answer.ok) throw new AudioMissing(`HTTP ${answer.status}`);
      if (first) performance.mark('here-answer');   // scripts/bench-web: the tap's path
      const size = Number(answer.headers.get('Content-Length')) || 0;
      let bytes = new Uint8Array(Math.min(size, MAX_BYTES) || 1 << 20), length = 0, track = null, sent = 0, sequence = 1;
      const reader = answer.body.getReader();
      for (;;) {
        const { done, value } = await reader.read().catch((e) => { throw signal.aborted ? e : new AudioMissing(String(e)); });
        if (value) {
          if (length + value.length > MAX_BYTES) throw new Mp4Error('larger than a preview');
          if (length + value.length > bytes.length) {
            const grown = new Uint8Array(Math.max(bytes.length * 2, length + value.length));
            grown.set(bytes.subarray(0, length));
            bytes = grown;
          }
          bytes.set(value, length);
          length += value.length;
        }
        if (!track) {
          const moov = moovRange(bytes, length);
          if (moov && moov.end <= length) {
            track = readTrack(bytes, moov);
            segment.end = segment.start + track.valid / track.timescale;
            if (first) performance.mark('here-moov');
            await this.append(segment, track, initSegment(track), true);
            segment.settle.resolve();
          }
        }
        if (track) {
          const n = samplesWithin(track, sent, length);
          if (n > 0) {
            await this.append(segment, track, mediaSegment(track, bytes, sent, n, sequence++), false);
            sent += n;
            if (first) { first(); first = null; }
          }
        }
        if (done) break;
      }
      if (!track) throw new Mp4Error('no moov');
      if (sent < track.count) throw new Mp4Error(`${track.count - sent} samples missing`);
    } catch (error) {
      segment.settle.reject(error);
      if (signal.aborted) return;
      const i = this.segments.indexOf(segment);
      if (i >= 0) this.segments.splice(i);   // nothing after a track that failed: the element stops at its end
      if (this.pending === segment) {   // what played before is a track previewd has left: silence
        this.pending = null;
        this.idle();
      }
      this.hooks.failed(segment.id, error);
      this.tick();   // the track before it may be at its end already
    }
  }

  /** One append, in turn with the buffer's other operations, placed on the segment's part of the
   *  timeline: timestampOffset moves the track's first sample (its priming) to before the segment's
   *  start, and the append window keeps only [start, end). A full buffer (QuotaExceededError) first
   *  loses what has played, then the append is tried once more. */
  append(segment, track, data, init) {
    return this.run(async () => {
      if (segment.abort.signal.aborted) throw new DOMException('aborted', 'AbortError');
      await this.opened;
      if (!this.buffer) {
        this.buffer = this.source.addSourceBuffer(track.mime);
        this.mime = track.mime;
      } else if (init && track.mime !== this.mime && typeof this.buffer.changeType === 'function') {
        this.buffer.changeType(track.mime);
        this.mime = track.mime;
      }
      const b = this.buffer;
      b.appendWindowEnd = Infinity;
      b.appendWindowStart = segment.start;
      b.appendWindowEnd = segment.end;
      b.timestampOffset = segment.start - track.priming / track.timescale;
      try {
        await this.done(() => b.appendBuffer(data));
      } catch (error) {
        if (!error || error.name !== 'QuotaExceededError' || !this.current) throw error;
        await this.done(() => b.remove(0, Math.max(0.1, Math.min(this.current.start, this.element.currentTime - 1))));
        await this.done(() => b.appendBuffer(data));
      }
    });
  }

  /** Removes [from, to) of the timeline from the buffer (what has played, or a next track replaced). */
  remove(from, to) {
    this.run(async () => {
      if (!this.buffer || this.source.readyState !== 'open' || to <= from) return;
      await this.done(() => this.buffer.remove(from, to));
    }).catch(() => {});
  }

  run(operation) {
    const result = this.ops.then(operation);
    this.ops = result.catch(() => {});
    return result;
  }

  /** Starts one buffer operation and settles when it is done (updateend) or failed. */
  done(start) {
    const b = this.buffer;
    return new Promise((resolve, reject) => {
      const end = () => { b.removeEventListener('error', error); resolve(); };
      const error = () => { b.removeEventListener('updateend', end); reject(new Error('SourceBuffer error')); };
      b.addEventListener('updateend', end, { once: true });
      b.addEventListener('error', error, { once: true });
      try { start(); } catch (e) {
        b.removeEventListener('updateend', end); b.removeEventListener('error', error);
        reject(e);
      }
    });
  }

  /** Follows the element's time: the segment it is in (a crossing into the next track tells the
   *  page), the end of the last one appended, and a timer to the next boundary (timeupdate comes
   *  only every ~250 ms; the timer makes a crossing known within a few ms while scripts run). */
  tick() {
    clearTimeout(this.timer);
    if (this.pending) return;
    const t = this.element.currentTime;
    let now = null;
    for (const s of this.segments) if (s.start <= t + 0.001) now = s;
    if (now && now !== this.current) {
      const from = this.current;
      this.current = now;
      if (from) {
        this.hooks.crossed(from.id, now.id);
        this.remove(0, now.start - 0.1);
        this.segments = this.segments.slice(this.segments.indexOf(now));   // bounded: what played is gone
      }
    }
    const s = this.current;
    this.hooks.time();
    if (!s || !isFinite(s.end)) return;
    const last = this.segments[this.segments.length - 1] === s;
    if (last && t >= s.end - END_SLACK) {
      if (!s.endSent) { s.endSent = true; this.hooks.ended(s.id); }
      return;
    }
    if (!this.element.paused) this.timer = setTimeout(() => this.tick(), Math.max(5, (s.end - t) * 1000 / (this.element.playbackRate || 1)));
  }
}
