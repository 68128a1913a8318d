// The player screen (and the mini player on the search screen): the track, the transport, the
// position bar, volume, modes, mark and the store link.
import { $ } from './dom.js';
import { duration, httpURL, isMovie, price, releaseDate, text } from './format.js';
import { command, currentPosition, currentTrack } from './remote.js';
import { renderUpNext } from './queue.js';
import { playback } from './state.js';
import { closePlayer, setThumbnail } from './ui.js';

/** The transport's commands, one table: the buttons, the keys and the page's own playback (the media
 *  session) all go through it, so what the page plays and what previewd plays stay one transport. */
export const transport = {
  toggle: () => command('toggle'),
  play: () => command('play'),
  pause: () => command('pause'),
  prev: () => command('prev'),
  next: () => command('next'),
  seekTo: (ms) => command('seek', { position: ms / 1000 }),
  seekBy: (seconds) => command('seek', { delta: seconds }),
};

export function renderPlayer(trackChanged) {
  const status = playback.status;
  const track = currentTrack();
  const title = track ? (text(track.trackName) || 'Untitled') : 'Nothing playing';
  $('title').textContent = title;
  $('artist').textContent = track ? text(track.artistName) : 'Search and tap a track to play it.';
  $('artist').classList.toggle('hint', !track);
  $('album').textContent = track ? text(track.collectionName) : '';
  $('facts').textContent = track
    ? [releaseDate(track.releaseDate), text(track.primaryGenreName), price(track)].filter(Boolean).join(' · ')
    : '';
  const store = track ? httpURL(track.trackViewUrl) : null;
  if (store) { $('store').href = store; $('store').removeAttribute('aria-disabled'); }
  else { $('store').removeAttribute('href'); $('store').setAttribute('aria-disabled', 'true'); }
  $('share').disabled = !track;
  $('mark').disabled = !track;
  $('mark').setAttribute('aria-pressed', String(!!(status && status.marked)));
  $('mark-label').textContent = status && status.marked ? 'Marked' : 'Mark';
  // the mini player on the search screen
  $('mini').hidden = !track;
  $('mini-title').textContent = track ? title : '';
  $('mini-artist').textContent = track ? text(track.artistName) : '';
  if (trackChanged !== false) renderArtwork(false);
  renderTransport();
  renderVolume();
  renderModes();
  renderPosition();
  renderUpNext();
}

/** The current track's picture, asked once per track change (the player and the mini player share
 *  the one request). `cached`: previewd says it has the picture now, which matters only to a picture
 *  the first request did not find (its image lost its src): that one is asked again. */
export function renderArtwork(cached) {
  const status = playback.status;
  const id = status && status.track ? status.id : null;
  const src = typeof id === 'number' ? `/art/item/${id}` : '';
  const tall = status && status.track ? isMovie(status.track) : false;
  const again = cached && src ? `${src}?found=${++playback.artworkTries}` : null;
  for (const img of [$('artwork'), $('mini-art')]) {
    const retry = again && img.dataset.src === src && !img.getAttribute('src');
    if (img.dataset.src === src && !retry) continue;
    img.dataset.src = src;
    setThumbnail(img.parentElement, retry ? again : (src || null), tall);
  }
}

export function renderTransport() {
  const state = playback.status ? playback.status.state : 'idle';
  const playing = state === 'playing' || state === 'loading';
  $('toggle').setAttribute('aria-label', playing ? 'Pause' : 'Play');
  $('toggle-icon').setAttribute('href', playing ? '#i-pause' : '#i-play');
  $('mini-state').querySelector('use').setAttribute('href', playing ? '#i-pause' : '#i-play');
  $('player').dataset.state = state;
  if (state === 'playing') startFrames(); else { stopFrames(); renderPosition(); }
}

export function renderVolume() {
  const status = playback.status;
  if (!status || typeof status.volume !== 'number') return;
  if (document.activeElement !== $('volume') || !playback.volumeTimer) $('volume').value = String(status.volume);
  $('volume-value').textContent = String(status.volume);
  $('mute').setAttribute('aria-pressed', String(!!status.muted));
  $('mute').setAttribute('aria-label', status.muted ? 'Unmute' : 'Mute');
  $('mute-icon').setAttribute('href', status.muted ? '#i-muted' : '#i-volume');
}

export function renderModes() {
  const status = playback.status;
  if (!status) return;
  const repeat = status.repeat || 'off';
  $('repeat').setAttribute('aria-pressed', String(repeat !== 'off'));
  $('repeat').setAttribute('aria-label', `Repeat: ${repeat}`);
  $('repeat-one').hidden = repeat !== 'one';
  $('shuffle').setAttribute('aria-pressed', String(!!status.shuffle));
  $('shuffle').setAttribute('aria-label', status.shuffle ? 'Shuffle: on' : 'Shuffle: off');
}

export function renderPosition() {
  const status = playback.status;
  const range = $('position');
  const track = currentTrack();
  const durationMs = status && typeof status.durationMs === 'number' && status.durationMs > 0 ? status.durationMs
    : (track && typeof track.trackTimeMillis === 'number' ? Math.min(track.trackTimeMillis, 30000) : 0);
  range.disabled = !track || !durationMs;
  if (playback.seeking) return;
  const position = currentPosition();
  range.max = String(Math.max(1, Math.round(durationMs)));
  range.value = String(Math.round(position));
  range.setAttribute('aria-valuetext', `${duration(position)} of ${duration(durationMs)}`);
  $('elapsed').textContent = duration(position) || '0:00';
  $('remaining').textContent = `-${duration(Math.max(0, durationMs - position)) || '0:00'}`;
}

// The bar moves on its own between the position ticks, one frame at a time, only while playing and seen.
export function startFrames() {
  const shown = () => playback.status && playback.status.state === 'playing' && document.visibilityState === 'visible' && !$('player').hidden;
  if (playback.frame || !shown()) return;
  const step = () => {
    playback.frame = 0;
    renderPosition();
    if (shown()) playback.frame = requestAnimationFrame(step);
  };
  playback.frame = requestAnimationFrame(step);
}

export function stopFrames() {
  if (playback.frame) cancelAnimationFrame(playback.frame);
  playback.frame = 0;
}

export function wirePlayer() {
  $('back').addEventListener('click', closePlayer);
  $('toggle').addEventListener('click', transport.toggle);
  $('prev').addEventListener('click', transport.prev);
  $('next').addEventListener('click', transport.next);
  $('repeat').addEventListener('click', () => {
    const order = { off: 'all', all: 'one', one: 'off' };
    command('repeat', { mode: order[(playback.status && playback.status.repeat) || 'off'] || 'off' });
  });
  $('shuffle').addEventListener('click', () => command('shuffle', { on: !(playback.status && playback.status.shuffle) }));
  $('mute').addEventListener('click', () => command('mute', { on: !(playback.status && playback.status.muted) }));
  $('mark').addEventListener('click', () => command(playback.status && playback.status.marked ? 'unmark' : 'mark'));
  $('store').addEventListener('click', (e) => { if (!$('store').getAttribute('href')) e.preventDefault(); });

  const position = $('position');
  position.addEventListener('input', () => {
    playback.seeking = true;
    const value = Number(position.value);
    $('elapsed').textContent = duration(value);
    $('remaining').textContent = `-${duration(Math.max(0, Number(position.max) - value))}`;
  });
  position.addEventListener('change', () => {
    const ms = Number(position.value);
    playback.seeking = false;
    playback.anchor = { positionMs: ms, at: performance.now() };
    transport.seekTo(ms);
  });

  const volume = $('volume');
  volume.addEventListener('input', () => {
    $('volume-value').textContent = volume.value;
    clearTimeout(playback.volumeTimer);
    playback.volumeTimer = setTimeout(() => { playback.volumeTimer = 0; command('volume', { level: Number(volume.value) }); }, 120);
  });
  volume.addEventListener('change', () => {
    clearTimeout(playback.volumeTimer);
    playback.volumeTimer = 0;
    command('volume', { level: Number(volume.value) });
  });

  // Space plays and pauses, the arrows seek by 5 s, when the keys are not someone else's.
  document.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target;
    if (target.closest && target.closest('input, select, textarea, button, a, [contenteditable]')) return;
    const track = currentTrack();
    if (e.key === ' ') { e.preventDefault(); transport.toggle(); }
    else if (e.key === 'ArrowRight' && track) { e.preventDefault(); transport.seekBy(5); }
    else if (e.key === 'ArrowLeft' && track) { e.preventDefault(); transport.seekBy(-5); }
  });
}
