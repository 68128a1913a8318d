// "Play here": the page plays the queue itself, track by track, from previewd's own bytes
// (`/audio/item/{id}`, same origin, byte ranges). previewd stays the one transport: it owns the
// queue, the current track and the modes; the page is one of its outputs and, while it plays,
// keeps the clock (it reports where it is; previewd's position is that). Every message names its
// queue item, so an end that comes late changes nothing.
//
// Where the engine has Media Source (gapless.js): ONE media element, each track appended to it right
// after the one before (gapless, and a tap costs a fetch and an append, not an element's start). A
// track the page cannot rewrite for it (not AAC: mp4.js), and every track in an engine without Media
// Source, plays through two media elements instead: the one playing and the next track preloaded,
// swapped at the end (a join of ~0.5 s in Chromium). No Web Audio: an iPhone suspends a Web Audio
// graph when it locks, silencing what goes through it, so the lock screen wins over even loudness
// there; the track's gain is the element's `volume` (loudness.js: below a fixed headroom; an iPhone ignores it).
import { $ } from './dom.js';
import { on } from './events.js';
import { text } from './format.js';
import { AudioMissing, Gapless, gaplessSupported } from './gapless.js';
import { link, request, watchLink } from './link.js';
import { elementVolume } from './loudness.js';
import { watchStatus } from './remote.js';
import { transport } from './player.js';
import { playback } from './state.js';
import { showError, toast } from './ui.js';

/** The page's own name for itself, new at every load: previewd tells pages apart by it. */
const page = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');

const here = {
  on: false,
  hereOnly: true,
  elements: [],            // two <audio>: [playing, preloaded] (the element path)
  gapless: null,           // the Media Source player, where the engine has one (while Play here is on)
  viaElement: false,       // the item heard plays through the element path (no Media Source, or not AAC)
  unfit: new Set(),        // items mp4.js could not rewrite: they play through the element path
  itemId: null,            // the queue item the playing element holds
  preloadId: null,         // the queue item the other element holds
  pendingId: null,         // previewd moved on to the preloaded item while the page's track still ends
  ownPause: false,         // the page paused its element itself (not an interruption)
  ownPlays: new WeakSet(), // elements the page started itself, until their `play` event (not a resume by the system)
  leftId: null,            // the item the page played to its end and told previewd of, until previewd moves on
  leftSeen: false,         // previewd's position tick named it once already
  lastReport: 0,
  other: false,            // another device plays here now
  stall: { time: -1, ticks: 0 },   // the element's time at previewd's last position ticks
  claimedAt: -Infinity,    // when the page last claimed (performance.now()): an older release's event is not for it
};

/** The media session's actions, one table (the lock screen, a headset, a car, a watch). A test calls
 *  them through `previewd.mediaActions`, as WebDriver cannot press a lock screen's buttons. */
export const mediaActions = {
  play: () => transport.play(),
  pause: () => transport.pause(),
  previoustrack: () => transport.prev(),
  nexttrack: () => transport.next(),
  seekto: (details) => transport.seekTo(Math.max(0, Number(details.seekTime) || 0) * 1000),
  seekbackward: (details) => transport.seekBy(-((details && details.seekOffset) || 10)),
  seekforward: (details) => transport.seekBy((details && details.seekOffset) || 10),
};

/** What the page plays, for the browser tests and a console. */
export const probe = {
  get on() { return here.on; },
  get itemId() { return here.itemId; },
  position: () => Math.round(positionSec() * 1000),
  get gapless() { return !!here.gapless && !here.viaElement; },
  /** The items on the Media Source element's timeline whose length is known (appended or appending). */
  get appended() { return here.gapless ? here.gapless.segments.filter((s) => isFinite(s.end)).map((s) => s.id) : []; },
  /** The element heard here (null before "Play here" was first on): a test pauses it as a browser does for a call. */
  element: () => (gapless() || here.elements.length ? sounding() : null),
};

const audioURL = (id) => `/audio/item/${id}`;
const playing = () => here.elements[0];
const preloaded = () => here.elements[1];
const gapless = () => (here.gapless && !here.viaElement ? here.gapless : null);
/** The element the listener hears now. */
const sounding = () => (gapless() ? here.gapless.element : playing());
/** Seconds into the item heard, and its length (the Media Source element's time spans tracks). */
const positionSec = () => (gapless() ? here.gapless.position() : here.elements.length ? playing().currentTime : 0);
const durationSec = () => (gapless() ? here.gapless.duration() : playing().duration);

function makeElement() {
  const element = new Audio();
  element.preload = 'auto';
  const mine = () => element === playing() && !gapless();
  element.addEventListener('ended', () => { if (mine()) ended(); });
  element.addEventListener('timeupdate', () => { if (mine()) report(false); });
  element.addEventListener('playing', () => {
    if (!mine()) return;
    performance.mark('here-playing');   // scripts/bench-web: tap → the element plays
    report(true);
  });
  element.addEventListener('pause', () => { if (mine()) paused(); });
  element.addEventListener('play', () => { if (mine()) resumed(element); });
  element.addEventListener('error', () => { if (mine()) failed(); });
  return element;
}

/** Turns "Play here" on or off; within a tap, so the element may start (autoplay rules). */
function toggle() {
  if (here.on) stop(true);
  else start();
}

/** The Media Source player and its element's events, told to the same functions as an element's. */
function makeGapless() {
  const player = new Gapless({ crossed, ended: () => ended(), failed: gaplessFailed, time: () => report(false) });
  const element = player.element;
  const mine = () => here.gapless === player && !here.viaElement;
  element.addEventListener('playing', () => { if (mine()) { performance.mark('here-playing'); report(true); } });
  element.addEventListener('seeked', () => { if (mine() && !element.paused) { performance.mark('here-playing'); report(true); } });
  element.addEventListener('pause', () => { if (mine()) paused(); });
  element.addEventListener('play', () => { if (mine()) resumed(element); });
  element.addEventListener('error', () => {
    if (here.gapless !== player) return;
    // The Media Source itself failed (a decode error ends it): the element path from here on.
    console.warn('previewd: Media Source playback failed; playing through media elements', element.error);
    toast('Gapless playback failed here; playing track by track');
    player.close();
    here.gapless = null;
    here.itemId = null;
    follow(playback.status, false);
  });
  return player;
}

function start() {
  if (!here.elements.length) here.elements = [makeElement(), makeElement()];
  if (!here.gapless && gaplessSupported()) here.gapless = makeGapless();
  here.viaElement = false;
  here.on = true;
  // The Media Source element is started inside this tap and kept started (silent while it has nothing
  // to play): a later tap costs a fetch and an append, and iOS lets an element started once play on.
  if (here.gapless) playElement(here.gapless.element).catch(() => {});
  here.other = false;
  // Started inside the tap, before any answer: a browser lets an element play only from a gesture.
  follow(playback.status, true);
  claim();
  render();
}

function claim() {
  here.claimedAt = performance.now();
  request('playhere', { page, on: true, hereOnly: here.hereOnly }).then(() => {}, (error) => {
    showError(error);
    if (error && error.code !== 'offline-link') stop(false);
  });
}

/** Off: the page stops; previewd's box outputs sound again at the position reached (`tell`: say so
 *  to previewd; not when another page took over). */
function stop(tell) {
  if (tell) request('playhere', { page, on: false }).catch(() => {});
  here.on = false;
  for (const element of here.elements) { here.ownPause = true; element.pause(); element.removeAttribute('src'); element.load(); }
  if (here.gapless) { here.gapless.close(); here.gapless = null; }
  here.ownPause = false;
  here.itemId = here.preloadId = here.leftId = null;
  if ('mediaSession' in navigator) navigator.mediaSession.playbackState = 'none';
  render();
}

/** Makes the page play what previewd says: its current item (swapping to the preloaded element when
 *  that holds it), at its state, and preloads what comes next. */
function follow(status, fromTap) {
  if (!here.on || !status) return;
  if (status.playHere && status.playHere.page !== page) { otherDevice(); return; }
  const id = typeof status.id === 'number' && status.track ? status.id : null;
  if (id !== here.leftId) here.leftId = null;
  // The page played this item to its end and said so; previewd's move to the next is on its way (a
  // status sent meanwhile still names it): the page plays on rather than go back into it.
  else if (id !== null && id !== here.itemId) return;
  if (id === null && gapless()) {
    here.gapless.idle();   // nothing to hear: the element stays started, silent, for the next tap
    here.itemId = null;
  } else if (id === null) {
    if (!sounding().paused) { here.ownPause = true; sounding().pause(); }
    here.itemId = null;
  } else if (id !== here.itemId && gapless() && here.gapless.upcoming(id) && here.gapless.endsWithin(0.5)) {
    // previewd's box ended its track a moment before the page: the element plays on into the next
    // track, appended already, and the crossing tells previewd (`crossed`).
    return;
  } else if (id !== here.itemId && here.gapless && !here.unfit.has(id)) {
    performance.mark('here-follow');   // scripts/bench-web: the tap's path
    if (here.viaElement) { here.ownPause = true; playing().pause(); here.ownPause = false; here.viaElement = false; }
    here.pendingId = null;
    here.itemId = id;
    here.gapless.jump(id, (status.positionMs || 0) > 300 ? status.positionMs / 1000 : 0);
    describe(status);
  } else if (id !== here.itemId && id === here.pendingId) {
    // waiting for the page's own end (below)
  } else if (id !== here.itemId && id === here.preloadId && endsWithin(playing(), 0.5)) {
    // previewd's box ended its track a moment before the page: the page's track plays to its end
    // and the preloaded one follows it there (`ended`), so nothing of either is cut.
    here.pendingId = id;
    performance.mark('here-pending');   // scripts/bench-web: the join
    // An element that never says `ended` (a stall at the very end) does not hold the page there.
    const left = playing().duration - playing().currentTime;
    setTimeout(() => { if (here.pendingId === id) { performance.mark('here-no-ended'); ended(); } }, (left + 0.5) * 1000);
    return;
  } else if (id !== here.itemId) {
    here.pendingId = null;
    if (here.gapless && !here.viaElement) {
      here.ownPause = true; here.gapless.element.pause(); here.ownPause = false;
      here.viaElement = true;
      here.preloadId = null;
    }
    if (here.preloadId === id) {
      here.elements.reverse();
      here.preloadId = null;
    } else {
      playing().src = audioURL(id);
      const at = (status.positionMs || 0) / 1000;
      if (at > 0.3) playing().currentTime = at;
    }
    here.itemId = id;
    here.ownPause = true;
    preloaded().pause();
    here.ownPause = false;
    if (preloaded().currentTime) preloaded().currentTime = 0;
    describe(status);
  }
  const shouldPlay = status.state === 'playing' || status.state === 'loading' || (fromTap && status.state !== 'paused' && status.state !== 'stopped' && id !== null);
  if (id !== null && shouldPlay && sounding().paused) {
    playElement(sounding()).catch((e) => { if (e && e.name === 'NotAllowedError') toast('Tap Play here again to let this page play'); });
  } else if (id !== null && !shouldPlay && !sounding().paused) {
    here.ownPause = true;
    sounding().pause();
  }
  const nextId = typeof status.nextId === 'number' ? status.nextId : null;
  if (gapless() && id !== null) {
    // What plays at the track's end is appended after it: the element plays on into it by itself.
    const after = atEnd(status, id, nextId);
    here.gapless.ahead(after !== null && here.unfit.has(after) ? null : after);
  } else if (id !== null) {
    const after = atEnd(status, id, nextId);
    if (after !== null && after !== id && after !== here.preloadId) {
      here.preloadId = after;
      preloaded().src = audioURL(after);
      preloaded().load();
    }
  }
  setGain(status);
  if ('mediaSession' in navigator) navigator.mediaSession.playbackState = shouldPlay ? 'playing' : 'paused';
}

/** What previewd plays when the track `id` ends (Transport.upcoming): the same track under repeat
 *  one (or single with repeat), nothing when single stops there, else the next one (`nextId`). */
function atEnd(status, id, nextId) {
  const single = status.single && status.single !== 'off';
  const again = !status.consume && (status.repeat === 'one' || (single && status.repeat && status.repeat !== 'off'));
  return again ? id : single ? null : nextId;
}

/** The Media Source element played from one track into the next one appended: previewd is told the
 *  first ended (as at an element's end), and the page now reports the second. Its gain is set now
 *  when previewd's status has it already, else when previewd's answer names it (`follow`). */
function crossed(fromId, toId) {
  performance.mark('here-ended');
  if (here.itemId !== fromId) return;
  here.itemId = toId;
  here.leftId = fromId;
  const status = playback.status;
  if (status && status.id === toId) { describe(status); setGain(status); }
  request('playhere', { page, ended: fromId }).catch(() => {});
  report(true);
}

/** The Media Source player could not have a track: one with no audio at all is a failure as in an
 *  element; one it cannot rewrite or append (not AAC, a damaged file) plays through the element path. */
function gaplessFailed(id, error) {
  if (!(error instanceof AudioMissing)) {
    console.warn(`previewd: item ${id} plays without the gapless join (${error && error.message})`);
    here.unfit.add(id);
    if (here.on && id === here.itemId && playback.status && playback.status.id === id) {
      here.itemId = null;
      follow(playback.status, false);
    }
  } else if (id === here.itemId) {
    failed();
  }
}

/** A track ended in the page: the preloaded one starts at once (the join), and previewd is told
 *  which item ended; it advances unless it has left that item already. */
function ended() {
  performance.mark('here-ended');
  const endedId = here.itemId;
  if (endedId === null) return;
  const status = playback.status;
  const statusNext = status && typeof status.nextId === 'number' ? status.nextId : null;
  // What previewd plays at this end (`atEnd`: nothing under single, the same track under repeat one).
  const nextId = here.pendingId !== null ? here.pendingId : status && status.id === endedId ? atEnd(status, endedId, statusNext) : statusNext;
  here.pendingId = null;
  if (nextId !== null && here.preloadId === nextId) {
    here.elements.reverse();
    here.preloadId = null;
    here.itemId = nextId;
    here.leftId = endedId;
    // The swapped-in element has the level of tracks ago: it takes the one just heard until previewd names the new track.
    playing().volume = preloaded().volume;
    playing().muted = preloaded().muted;
    playElement(playing()).catch(() => {});
    if (status && status.id === nextId) { describe(status); follow(status, false); }
  }
  request('playhere', { page, ended: endedId }).catch(() => {});
}

/** An element that says it plays but has not moved over three of previewd's position ticks (a stall,
 *  a request that never got its answer) is asked for its audio again, at previewd's position. */
function unstick(status) {
  if (!here.on || here.itemId === null || status.id !== here.itemId || status.state !== 'playing') return;
  const element = sounding();
  if (element.paused || element.ended || element.currentTime !== here.stall.time) {
    here.stall = { time: element.currentTime, ticks: 0 };
    return;
  }
  if (++here.stall.ticks < 3) return;
  here.stall = { time: -1, ticks: 0 };
  performance.mark('here-unstuck');
  if (gapless()) {
    here.gapless.jump(here.itemId, (status.positionMs || 0) / 1000);
    playElement(element).catch(() => {});
    return;
  }
  element.src = audioURL(here.itemId);
  const at = (status.positionMs || 0) / 1000;
  if (at > 0.3) element.currentTime = at;
  playElement(element).catch(() => {});
}

function endsWithin(element, seconds) {
  return !element.paused && isFinite(element.duration) && element.duration - element.currentTime < seconds;
}

/** Starts an element for the page (its `play` event is then not taken for the system's resume). */
function playElement(element) {
  if (element.paused) here.ownPlays.add(element);
  return element.play().catch((error) => { here.ownPlays.delete(element); throw error; });
}

/** The element started without the page asking, while previewd is paused: the system gave the audio
 *  back (iOS may resume an element after a call: WebKit's `PlatformMediaSession::endInterruption`), so
 *  previewd plays too, one transport (the mirror of `paused`). */
function resumed(element) {
  if (here.ownPlays.delete(element) || !here.on) return;
  const status = playback.status;
  if (status && status.state === 'paused') transport.play();
}

/** The element stopped without the page asking (a call, another app taking the audio, a headset
 *  pulled): previewd pauses too, one transport. */
function paused() {
  if (here.ownPause) { here.ownPause = false; return; }
  if (!here.on || sounding().ended) return;
  const status = playback.status;
  if (status && status.state === 'playing') transport.pause();
}

/** The item's audio could not be had: gone from the queue, no playable preview, or the link down. */
function failed() {
  if (!here.on || here.itemId === null) return;
  if (!link.wsOpen || !link.daemonUp) return;   // previewd-web or previewd away: asked again when back
  const waiting = playback.status && playback.status.waiting;
  if (waiting && waiting.id === here.itemId) return;   // previewd waits for the network (the banner says so): no skip
  toast('This track has no playable preview here; skipping it');
  request('playhere', { page, failed: here.itemId }).catch(() => {});
}

/** Tells previewd where the page is, about once a second while it plays, and at once on a start. */
function report(now) {
  if (!here.on || here.itemId === null) return;
  const at = performance.now();
  if (!now && at - here.lastReport < 900) return;
  here.lastReport = at;
  request('playhere', { page, id: here.itemId, positionMs: Math.round(positionSec() * 1000), playing: !sounding().paused })
    .catch(() => {});
  positionState();
}

/** Another page turned "Play here" on: this one stops and says so. */
function otherDevice() {
  stop(false);
  here.other = true;
  render();
}

/** The track's gain (previewd's loudness decision, below the page's headroom) times previewd's
 *  volume, as the element's volume (loudness.js). */
function setGain(status) {
  const element = sounding();
  element.volume = elementVolume(status.loudness, status.volume);
  element.muted = !!status.muted;
}

/** The lock screen's title, artist, album and picture. */
function describe(status) {
  if (!('mediaSession' in navigator) || typeof MediaMetadata !== 'function') return;
  const track = status.track || {};
  navigator.mediaSession.metadata = new MediaMetadata({
    title: text(track.trackName) || 'Untitled',
    artist: text(track.artistName),
    album: text(track.collectionName),
    artwork: [{ src: `/art/item/${status.id}`, sizes: '600x600', type: 'image/jpeg' }],
  });
}

function positionState() {
  if (!('mediaSession' in navigator) || typeof navigator.mediaSession.setPositionState !== 'function') return;
  const duration = durationSec();
  if (!isFinite(duration) || duration <= 0) return;
  try {
    navigator.mediaSession.setPositionState({ duration, position: Math.min(positionSec(), duration), playbackRate: 1 });
  } catch (e) { /* a position past the duration while a track changes */ }
}

function render() {
  for (const button of [$('play-here'), $('play-here-search')]) {
    button.setAttribute('aria-pressed', String(here.on));
  }
  $('play-here-search').setAttribute('aria-label', here.on ? 'Play here: on' : 'Play here');
  $('here-only').hidden = !here.on;
  $('here-only').setAttribute('aria-pressed', String(here.hereOnly));
  $('here-only').textContent = here.hereOnly ? 'Here only' : 'Here and on the speakers';
  $('here-note').textContent = here.on ? 'Playing on this device.' : (here.other ? 'Another device plays now.' : '');
  document.body.classList.toggle('playing-here', here.on);
}

/** What a tap waits for before it shows the player screen: while the page plays here, the new track's
 *  first samples in the element (or its failure); null otherwise. The screen's first layout takes
 *  30–150 ms of the page's one thread, and in the middle of the tap's fetch and appends it would hold
 *  the sound up by as much (scripts/bench-web, tap → heard in the page). */
export function soundStarting() {
  return here.on && gapless() ? here.gapless.starting : null;
}

export function wirePlayHere() {
  $('play-here').addEventListener('click', toggle);
  $('play-here-search').addEventListener('click', toggle);
  $('here-only').addEventListener('click', () => {
    here.hereOnly = !here.hereOnly;
    render();
    if (here.on) claim();
  });
  if ('mediaSession' in navigator) {
    for (const [action, handler] of Object.entries(mediaActions)) {
      try { navigator.mediaSession.setActionHandler(action, handler); } catch (e) { /* an action this browser lacks */ }
    }
  }
  render();
}

// previewd's word on what plays: the page follows it.
watchStatus((status) => follow(status, false));
on('seeked', (e) => {
  if (!here.on || (e.id !== undefined && e.id !== here.itemId)) return;
  const at = e.positionMs / 1000;
  if (!isFinite(at) || Math.abs(positionSec() - at) <= 0.25) return;
  if (gapless()) here.gapless.seek(at);
  else playing().currentTime = at;
});
on('position', () => {
  const status = playback.status;
  if (!status) return;
  // previewd still plays the item the page ended a tick later: it did not take that end (a pause
  // crossed it): the page goes back to previewd's track, whose end it then tells again.
  if (here.leftId !== null && status.id === here.leftId && status.state === 'playing') {
    if (here.leftSeen) { here.leftId = null; here.leftSeen = false; follow(status, false); return; }
    here.leftSeen = true;
  } else here.leftSeen = false;
  unstick(status);
});
on('playhere', (e) => {
  if (here.on && e.playHere && e.playHere.page !== page) otherDevice();
  // previewd let the claim go (the page said nothing for longer than a track while it played): the
  // box's outputs sound again; the page says so rather than play beside them.
  else if (here.on && !e.playHere && performance.now() - here.claimedAt > 2000) {
    stop(false);
    toast('Playing on the speakers again');
  }
});
// previewd-web or previewd back: the page claims again (a previewd that started anew knows no page);
// the element went on meanwhile with what it had.
let linkUp = false;
watchLink(() => {
  const up = link.wsOpen && link.daemonUp;
  if (up && !linkUp && here.on) claim();
  linkUp = up;
});
// The gain changes once the whole clip is measured.
on('loudness', (e) => {
  const status = playback.status;
  if (!here.on || !status || e.id !== status.id || !e.loudness) return;
  status.loudness = e.loudness;
  setGain(status);
});

