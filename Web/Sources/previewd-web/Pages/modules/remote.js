// previewd's status and queue as the page holds them: asked after a (re)connection, kept by the events,
// asked again one request at a time. The views draw from state.js and are told here what changed.
import { onAll } from './events.js';
import { link, request } from './link.js';
import { playback, queue } from './state.js';
import { renderArtwork, renderModes, renderPlayer, renderPosition, renderTransport, renderVolume, startFrames, stopFrames } from './player.js';
import { renderQueue } from './queue.js';
import { showError, toast } from './ui.js';

const statusWatchers = [];
let statusAsking = false;
let statusAgain = false;

/** Calls `watcher(status, trackChanged)` after every status applied (an answer or an event). */
export function watchStatus(watcher) { statusWatchers.push(watcher); }

function statusChanged(trackChanged) { for (const watcher of statusWatchers) watcher(playback.status, trackChanged); }

/** A command whose error is only shown (transport buttons, queue edits). */
export function command(cmd, args) {
  return request(cmd, args).then((result) => {
    if (result && typeof result === 'object' && 'state' in result && 'queueVersion' in result) applyStatus(result);
    return result;
  }, (error) => { showError(error); return null; });
}

export function currentTrack() { return (playback.status && playback.status.track) || null; }

export function currentPosition() {
  const status = playback.status;
  if (!status) return 0;
  let position = playback.anchor.positionMs;
  if (status.state === 'playing') position += performance.now() - playback.anchor.at;
  const durationMs = status.durationMs;
  if (typeof durationMs === 'number' && durationMs > 0) position = Math.min(position, durationMs);
  return Math.max(0, position);
}

/** After a (re)connection or previewd coming back: the status, then the queue: only what changed
 * since the version held (`queue since`), unless previewd started again meanwhile (its versions
 * start over), when the whole queue. */
export function catchUp() {
  request('status').then((status) => {
    if (queue.version !== null && !(status.queueVersion >= queue.version)) queue.version = null;
    applyStatus(status);
    askQueue();
  }, () => {});
}

/** Asks the status, one request at a time (a burst of events asks once more, not once each). */
export function refreshStatus() {
  if (!link.daemonUp) return;
  if (statusAsking) { statusAgain = true; return; }
  statusAsking = true;
  request('status').then(applyStatus, () => {}).finally(() => {
    statusAsking = false;
    if (statusAgain) { statusAgain = false; refreshStatus(); }
  });
}

export function applyStatus(status) {
  if (!status || typeof status !== 'object') return;
  const trackChanged = !playback.status || playback.status.id !== status.id;
  playback.status = status;
  playback.anchor = { positionMs: status.positionMs || 0, at: performance.now() };
  renderPlayer(trackChanged);
  renderQueue();
  if (queue.version !== null && status.queueVersion !== queue.version) askQueue();
  statusChanged(trackChanged);
}

/** Asks the queue (only what changed since the version held), one request at a time. */
export function askQueue() {
  if (!link.daemonUp) return;
  if (queue.asking) { queue.again = true; return; }
  queue.asking = true;
  const since = queue.version;
  request('queue', since === null ? undefined : { since }).then((answer) => {
    if (since === null || !('length' in answer)) {
      queue.version = answer.version;
      queue.items = Array.isArray(answer.items) ? answer.items : [];
    } else {
      const items = queue.items.slice(0, answer.length);
      for (const item of answer.items || []) items[item.index] = item;
      if (items.length !== answer.length || items.some((item) => item === undefined)) {
        queue.version = null;   // a gap: ask for the whole queue
        queue.items = [];
        queue.again = true;
      } else {
        queue.version = answer.version;
        queue.items = items;
      }
    }
    renderQueue();
  }, () => {}).finally(() => {
    queue.asking = false;
    if (queue.again) { queue.again = false; askQueue(); }
  });
}

// previewd's events as they change the status and the queue.
onAll({
  daemon(e) {
    if (e.state === 'up') {
      catchUp();
    } else {
      stopFrames();
      queue.version = null;   // a previewd that comes back numbers its queue anew
    }
  },
  track(e) {
    const status = playback.status;
    if (status) {
      status.index = e.index;
      status.id = e.id;
      status.track = e.track || null;
      if ('loudness' in e) status.loudness = e.loudness;   // the new track's gain, not the last one's (playhere.js)
      status.positionMs = 0;
      playback.anchor = { positionMs: 0, at: performance.now() };
      renderPlayer();
      renderQueue();
      statusChanged(true);
    }
    refreshStatus();
  },
  state(e) {
    const status = playback.status;
    if (status) {
      playback.anchor = { positionMs: currentPosition(), at: performance.now() };
      status.state = e.state;
      if (e.index !== undefined) status.index = e.index;
      renderTransport();
      statusChanged(false);
    }
  },
  position: moved,
  seeked: moved,
  volume(e) {
    if (playback.status) {
      playback.status.volume = e.volume;
      playback.status.muted = e.muted;
      renderVolume();
      statusChanged(false);
    }
  },
  modes(e) {
    if (playback.status) {
      Object.assign(playback.status, { repeat: e.repeat, shuffle: e.shuffle, single: e.single, consume: e.consume });
      renderModes();
    }
    refreshStatus();   // "up next" depends on the modes
  },
  queue() {
    askQueue();
    refreshStatus();
  },
  lists() { refreshStatus(); },   // the shortlist may have changed: "marked"
  artwork(e) {
    if (playback.status && e.index === playback.status.index) renderArtwork(true);   // only a picture not found before
  },
  output(e) {
    if (e.state === 'lost') toast(`Audio output lost: ${e.reason || ''}`);
    else if (e.state === 'ok') toast('Audio output back');
  },
});

function moved(e) {
  if (!playback.status) return;
  playback.status.positionMs = e.positionMs;
  if (e.durationMs !== undefined) playback.status.durationMs = e.durationMs;
  playback.anchor = { positionMs: e.positionMs, at: performance.now() };
  renderPosition();
  startFrames();
  statusChanged(false);
}
