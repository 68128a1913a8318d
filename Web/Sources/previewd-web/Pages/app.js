// previewd's web remote: one WebSocket to /ws carrying previewd's own protocol (docs/PROTOCOL.md)
// and its events. No framework, no build step, nothing from another origin (CSP default-src 'self').
// Text from the catalog is untrusted: it goes into the page through textContent only, and a link is
// followed only when it is http(s).
'use strict';

const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------- state

const app = {
  ws: null,
  wsOpen: false,
  linkLost: false,           // the WebSocket closed (or never opened): "no connection" is said
  daemonUp: false,
  daemonDown: false,         // previewd-web said previewd is gone
  nextId: 1,
  pending: new Map(),        // request id → {resolve, reject, cmd}
  backoff: 500,
  reconnectTimer: 0,
  status: null,              // previewd's status object
  queue: { version: null, items: [] },
  queueAsking: false,
  statusAsking: false,
  statusAgain: false,
  queueAgain: false,
  queueDrawn: '',
  anchor: { positionMs: 0, at: 0 },   // the last position heard and when (performance.now())
  seeking: false,
  frame: 0,
  tab: 'all',
  results: [],               // the results as previewd answered them (catalog order)
  shown: [],                 // the results in the order on screen
  mayHaveMore: false,
  searchSeq: 0,
  searchTimer: 0,
  lastSearch: null,          // {term, tab, limit} of what the results are
  openingQuery: false,       // /?q=TERM: search for it once previewd answers
  chartLoaded: false,
  volumeTimer: 0,
  toastTimer: 0,
  artworkTries: 0,           // a picture asked again once previewd has it gets a URL of its own
  visibleTimer: 0,
  visibleSent: null,         // the track ids last told to previewd as on screen (`visible`)
  pushedPlayer: false,
  searchFailedAt: -Infinity,
};

const TABS = {
  all: { media: 'all' },
  songs: { media: 'music', entity: 'song' },
  movies: { media: 'movie' },
};

// ---------------------------------------------------------------- the WebSocket

function connect() {
  clearTimeout(app.reconnectTimer);
  app.reconnectTimer = 0;
  if (app.ws && app.ws.readyState <= WebSocket.OPEN) return;
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  let ws;
  try {
    ws = new WebSocket(`${scheme}//${location.host}/ws`);
  } catch (e) {
    scheduleReconnect();
    return;
  }
  app.ws = ws;
  ws.addEventListener('open', () => {
    if (app.ws !== ws) return;
    app.wsOpen = true;
    app.linkLost = false;
    app.backoff = 500;
    showBanner();
  });
  ws.addEventListener('message', (message) => {
    if (app.ws !== ws) return;
    let object;
    try { object = JSON.parse(message.data); } catch (e) { return; }
    if (object && typeof object === 'object') receive(object);
  });
  ws.addEventListener('close', () => {
    if (app.ws !== ws) return;
    app.ws = null;
    app.wsOpen = false;
    app.linkLost = true;
    app.daemonUp = false;
    app.daemonDown = false;   // unknown until the next WebSocket says
    failPending('no connection');
    showBanner();
    stopFrames();
    scheduleReconnect();
  });
}

function scheduleReconnect() {
  if (app.reconnectTimer || document.visibilityState === 'hidden') return;   // visible again reconnects
  const wait = app.backoff;
  app.backoff = Math.min(app.backoff * 2, 10000);
  app.reconnectTimer = setTimeout(() => { app.reconnectTimer = 0; connect(); }, wait);
}

function failPending(reason) {
  for (const [, entry] of app.pending) entry.reject({ code: 'offline-link', message: reason });
  app.pending.clear();
}

/** Sends one request; resolves with its result, rejects with previewd's error object. */
function request(cmd, args) {
  return new Promise((resolve, reject) => {
    if (!app.ws || !app.wsOpen) { reject({ code: 'offline-link', message: 'no connection' }); return; }
    const id = app.nextId++;
    const body = { id, cmd };
    if (args) body.args = args;
    app.pending.set(id, { resolve, reject, cmd });
    app.ws.send(JSON.stringify(body));
  });
}

/** A command whose error is only shown (transport buttons, queue edits). */
function command(cmd, args) {
  return request(cmd, args).then((result) => {
    if (result && typeof result === 'object' && 'state' in result && 'queueVersion' in result) applyStatus(result);
    return result;
  }, (error) => { showError(error); return null; });
}

function receive(object) {
  if ('event' in object) { onEvent(object); return; }
  const entry = app.pending.get(object.id);
  if (!entry) return;
  app.pending.delete(object.id);
  if (object.ok === true) entry.resolve(object.result);
  else entry.reject(object.error && typeof object.error === 'object' ? object.error : { code: 'invalid-data', message: 'invalid answer' });
}

// ---------------------------------------------------------------- events

function onEvent(e) {
  switch (e.event) {
    case 'daemon':
      app.daemonUp = e.state === 'up';
      app.daemonDown = e.state === 'down';
      showBanner();
      if (app.daemonUp) {
        catchUp();
        if (app.openingQuery) { app.openingQuery = false; search(); }   // /?q=TERM: searched once previewd answers
      } else {
        failPending('previewd is not running');
        stopFrames();
        app.queue.version = null;   // a previewd that comes back numbers its queue anew
      }
      break;
    case 'track':
      if (app.status) {
        app.status.index = e.index;
        app.status.id = e.id;
        app.status.track = e.track || null;
        app.status.positionMs = 0;
        app.anchor = { positionMs: 0, at: performance.now() };
        renderPlayer();
        renderQueue();
      }
      refreshStatus();
      break;
    case 'state':
      if (app.status) {
        app.status.state = e.state;
        if (e.index !== undefined) app.status.index = e.index;
        app.anchor = { positionMs: currentPosition(), at: performance.now() };
        renderTransport();
      }
      break;
    case 'position':
    case 'seeked':
      if (app.status) {
        app.status.positionMs = e.positionMs;
        if (e.durationMs !== undefined) app.status.durationMs = e.durationMs;
        app.anchor = { positionMs: e.positionMs, at: performance.now() };
        renderPosition();
        startFrames();
      }
      break;
    case 'volume':
      if (app.status) {
        app.status.volume = e.volume;
        app.status.muted = e.muted;
        renderVolume();
      }
      break;
    case 'modes':
      if (app.status) {
        Object.assign(app.status, { repeat: e.repeat, shuffle: e.shuffle, single: e.single, consume: e.consume });
        renderModes();
      }
      refreshStatus();   // "up next" depends on the modes
      break;
    case 'queue':
      askQueue();
      refreshStatus();
      break;
    case 'lists':
      refreshStatus();   // the shortlist may have changed: "marked"
      break;
    case 'artwork':
      if (app.status && e.index === app.status.index) renderArtwork(true);   // only a picture not found before
      break;
    case 'output':
      if (e.state === 'lost') toast(`Audio output lost: ${e.reason || ''}`);
      else if (e.state === 'ok') toast('Audio output back');
      break;
    case 'error':
      // A failed search already says so in its own words on the search screen.
      if (typeof e.message === 'string') {
        const message = e.message;
        setTimeout(() => { if (performance.now() - app.searchFailedAt > 2000) toast(message); }, 300);
      }
      break;
    default:
      break;
  }
}

/** After a (re)connection or previewd coming back: the status, then the queue: only what changed
 * since the version held (`queue since`), unless previewd started again meanwhile (its versions
 * start over), when the whole queue. */
function catchUp() {
  request('status').then((status) => {
    if (app.queue.version !== null && !(status.queueVersion >= app.queue.version)) app.queue.version = null;
    applyStatus(status);
    askQueue();
  }, () => {});
}

/** Asks the status, one request at a time (a burst of events asks once more, not once each). */
function refreshStatus() {
  if (!app.daemonUp) return;
  if (app.statusAsking) { app.statusAgain = true; return; }
  app.statusAsking = true;
  request('status').then(applyStatus, () => {}).finally(() => {
    app.statusAsking = false;
    if (app.statusAgain) { app.statusAgain = false; refreshStatus(); }
  });
}

function applyStatus(status) {
  if (!status || typeof status !== 'object') return;
  const trackChanged = !app.status || app.status.id !== status.id;
  app.status = status;
  app.anchor = { positionMs: status.positionMs || 0, at: performance.now() };
  renderPlayer(trackChanged);
  renderQueue();
  if (app.queue.version !== null && status.queueVersion !== app.queue.version) askQueue();
}

/** Asks the queue (only what changed since the version held), one request at a time. */
function askQueue() {
  if (!app.daemonUp) return;
  if (app.queueAsking) { app.queueAgain = true; return; }
  app.queueAsking = true;
  const since = app.queue.version;
  request('queue', since === null ? undefined : { since }).then((answer) => {
    if (since === null || !('length' in answer)) {
      app.queue = { version: answer.version, items: Array.isArray(answer.items) ? answer.items : [] };
    } else {
      const items = app.queue.items.slice(0, answer.length);
      for (const item of answer.items || []) items[item.index] = item;
      if (items.length !== answer.length || items.some((item) => item === undefined)) {
        app.queue = { version: null, items: [] };   // a gap: ask for the whole queue
        app.queueAgain = true;
      } else {
        app.queue = { version: answer.version, items };
      }
    }
    renderQueue();
  }, () => {}).finally(() => {
    app.queueAsking = false;
    if (app.queueAgain) { app.queueAgain = false; askQueue(); }
  });
}

// ---------------------------------------------------------------- formatting

function text(value) { return typeof value === 'string' ? value : ''; }

function duration(ms) {
  if (typeof ms !== 'number' || !isFinite(ms) || ms < 0) return '';
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}` : `${m}:${String(s).padStart(2, '0')}`;
}

function releaseDate(value) {
  if (typeof value !== 'string' || !value) return '';
  const date = new Date(value);
  if (isNaN(date.getTime())) return '';
  return date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

function price(track) {
  const amount = track.trackPrice;
  if (typeof amount !== 'number' || amount < 0) return 'not for sale';
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: text(track.currency) || 'USD' }).format(amount);
  } catch (e) {
    return amount.toFixed(2);
  }
}

function httpURL(value) {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch (e) {
    return null;
  }
}

function isMovie(track) { return /movie|tv-episode|music-video/.test(text(track.kind)); }

// ---------------------------------------------------------------- search

function tabArgs(tab) { return TABS[tab] || TABS.all; }

function scheduleSearch() {
  performance.mark('input');   // scripts/bench-web: keystroke → results drawn
  clearTimeout(app.searchTimer);
  app.searchTimer = setTimeout(search, 300);
}

function search() {
  clearTimeout(app.searchTimer);
  if (app.tab === 'top') return;
  const term = $('term').value.trim();
  const seq = ++app.searchSeq;
  if (!term) {
    app.results = [];
    app.mayHaveMore = false;
    app.lastSearch = null;
    setLoading(false, 'Type to search the store.');
    renderResults();
    return;
  }
  const limit = Number($('per-page').value);
  const args = Object.assign({ term, queue: false, limit }, tabArgs(app.tab));
  setLoading(true, `Searching for “${term}”…`);
  request('search', args).then((answer) => {
    if (seq !== app.searchSeq) return;
    app.lastSearch = { term, tab: app.tab, limit };
    takeResults(answer, false);
  }, (error) => {
    if (seq !== app.searchSeq) return;
    searchFailed(error, term);
  });
}

function more() {
  const seq = ++app.searchSeq;
  setLoading(true, 'Loading more…');
  $('more').disabled = true;
  request('more', { queue: false }).then((answer) => {
    if (seq !== app.searchSeq) return;
    takeResults(answer, true);
  }, (error) => {
    if (seq !== app.searchSeq) return;
    if (error.code === 'no-results' || error.code === 'rejected') {
      app.mayHaveMore = false;
      setLoading(false, resultsMessage());
      renderResults();
    } else {
      searchFailed(error, null, true);
    }
  }).finally(() => { $('more').disabled = false; });
}

function chart() {
  const seq = ++app.searchSeq;
  setLoading(true, 'Loading the top songs…');
  request('top', { queue: false, limit: 50 }).then((answer) => {
    if (seq !== app.searchSeq) return;
    app.chartLoaded = true;
    takeResults(answer, false);
    app.mayHaveMore = false;
    renderResults();
  }, (error) => {
    if (seq !== app.searchSeq) return;
    searchFailed(error, null);
  });
}

function takeResults(answer, append) {
  if (!answer || !Array.isArray(answer.results)) {
    searchFailed({ code: 'invalid-data' }, null);
    return;
  }
  const tracks = answer.results.filter((r) => r && typeof r === 'object');
  app.results = append ? app.results.concat(tracks) : tracks;
  app.mayHaveMore = app.tab !== 'top' && answer.mayHaveMore === true;
  setLoading(false, resultsMessage());
  renderResults();
}

function resultsMessage() {
  const n = app.results.length;
  if (app.tab === 'top') return n ? `Top ${n} songs` : 'The chart is empty.';
  return n === 1 ? '1 result' : `${n} results`;
}

/** The seeds' two errors: "no connection" (the store, previewd or this page's link unreachable) and
 * "invalid answer" (what came back was not the catalog's). */
function searchFailed(error, term, keep) {
  const code = error && error.code;
  let message;
  if (code === 'no-results') message = term ? `No results for “${term}”.` : 'No results.';
  else if (code === 'offline' || code === 'timeout' || code === 'offline-link' || code === 'http-status') message = 'No connection. Check the network and try again.';
  else if (code === 'invalid-data' || code === 'bad-request') message = 'Invalid answer from the store.';
  else if (code === 'rate-limited') message = 'Too many searches for the store right now; wait a moment.';
  else message = (error && typeof error.message === 'string' && error.message) || 'Something went wrong.';
  if (code !== 'no-results') app.searchFailedAt = performance.now();
  if (!keep) {
    app.results = [];
    app.mayHaveMore = false;
    renderResults();
  }
  setLoading(false, message, code !== 'no-results');
}

function setLoading(loading, message, isError) {
  $('spinner').hidden = !loading;
  $('search-status').classList.toggle('error', !!isError);
  $('search-status').setAttribute('aria-busy', loading ? 'true' : 'false');
  $('search-message').textContent = message;
}

function sortedResults() {
  const key = $('sort').value;
  const list = app.results.map((track, index) => ({ track, index }));
  const value = {
    duration: (t) => (typeof t.trackTimeMillis === 'number' ? t.trackTimeMillis : null),
    genre: (t) => (text(t.primaryGenreName) || null),
    price: (t) => (typeof t.trackPrice === 'number' && t.trackPrice >= 0 ? t.trackPrice : null),
  }[key];
  if (value) {
    list.sort((a, b) => {
      const x = value(a.track), y = value(b.track);
      if (x === null || y === null) return x === y ? a.index - b.index : (x === null ? 1 : -1);
      if (x < y) return -1;
      if (x > y) return 1;
      return a.index - b.index;   // stable
    });
  }
  return list.map((entry) => entry.track);
}

function renderResults() {
  app.shown = sortedResults();
  const list = $('results');
  const template = $('result-row').content;
  const rows = document.createDocumentFragment();
  app.shown.forEach((track, i) => {
    const row = template.firstElementChild.cloneNode(true);
    const title = text(track.trackName) || text(track.collectionName) || text(track.artistName) || 'Untitled';
    const artist = text(track.artistName);
    row.dataset.index = String(i);
    if (typeof track.trackId === 'number') row.dataset.trackId = String(track.trackId);
    row.querySelector('.row-title').textContent = title;
    row.querySelector('.row-sub').textContent = [artist, text(track.collectionName)].filter(Boolean).join(' · ');
    row.querySelector('.row-facts').textContent =
      // The song's length, named so: what plays is its preview (the position bar's length).
      [releaseDate(track.releaseDate), duration(track.trackTimeMillis) && `song ${duration(track.trackTimeMillis)}`,
       text(track.primaryGenreName)].filter(Boolean).join(' · ');
    row.querySelector('.row-price').textContent = price(track);
    row.querySelector('.row-price').classList.toggle('unsold', price(track) === 'not for sale');
    const main = row.querySelector('.row-main');
    main.setAttribute('aria-label', `Play ${title}${artist ? ' by ' + artist : ''}`);
    row.querySelector('.play-next').setAttribute('aria-label', `Play ${title} next`);
    row.querySelector('.add').setAttribute('aria-label', `Add ${title} to the queue`);
    setThumbnail(row.querySelector('.thumb'), typeof track.trackId === 'number' ? `/art/track/${track.trackId}?small=1` : null,
                 isMovie(track));
    rows.appendChild(row);
  });
  list.replaceChildren(rows);
  $('more').hidden = !app.mayHaveMore || app.tab === 'top';
  performance.mark('results-drawn');   // scripts/bench-web: page load and keystroke → results drawn
  scheduleVisible();
}

/** An image in its frame: the placeholder shows until it loads, and stays when there is none. */
function setThumbnail(frame, src, tall) {
  const img = frame.querySelector('img');
  frame.classList.add('placeholder');
  frame.classList.toggle('tall', !!tall);
  img.classList.remove('loaded');
  img.onload = () => { frame.classList.remove('placeholder'); img.classList.add('loaded'); };
  img.onerror = () => { img.removeAttribute('src'); };
  if (src) img.src = src; else img.removeAttribute('src');
}

/** Tapping a result: the results on screen become the queue and the one tapped plays, in one
 *  `add` (`replace`, `play`: no moment when the queue is empty, and previewd has the first seconds
 *  of what is on screen ready). By track id when every result has one (previewd keeps the tracks it
 *  answered), else the tracks themselves; past the first run, the rest is appended. */
async function playResult(index) {
  performance.mark('tap');   // scripts/bench-web: tap → audible, from the page's own click
  const tracks = app.shown.slice();
  if (!tracks[index]) return;
  const byId = tracks.every((t) => Number.isInteger(t.trackId) && t.trackId > 0);
  const runs = byId ? idChunks(tracks) : addChunks(tracks);
  try {
    for (const [start, chunk] of runs) {
      const args = byId ? { trackIds: chunk.map((t) => t.trackId) } : { tracks: chunk };
      const here = index >= start && index < start + chunk.length;
      if (start === 0) args.replace = true;
      if (here && start === 0) args.play = index;
      const answer = await request('add', args);
      if (here && start > 0) {
        const refused = new Set((answer.notQueued || []).map((n) => n.result));
        if (refused.has(index - start)) throw { code: 'rejected', message: 'This one has no preview to play.' };
        await request('play', { id: answer.ids[index - start - [...refused].filter((r) => r < index - start).length] });
      }
    }
    request('status').then(applyStatus, () => {});
    openPlayer();
  } catch (error) {
    if (error && error.code === 'rejected') toast(error.message || 'This one has no preview to play.');
    else showError(error);
  }
}

/** `tracks` in runs of at most 200 for `add {"trackIds"}`, each with its first index. */
function idChunks(tracks) {
  const chunks = [];
  for (let start = 0; start < tracks.length; start += 200) chunks.push([start, tracks.slice(start, start + 200)]);
  return chunks;
}

/** The rows on screen, told to previewd a moment after the list scrolls or is drawn, so it keeps
 *  their first seconds ready for a tap (`visible`). Nothing is sent when they did not change. */
function scheduleVisible() {
  clearTimeout(app.visibleTimer);
  app.visibleTimer = setTimeout(sendVisible, 200);
}

function sendVisible() {
  if ($('results').offsetParent === null) return;   // the player covers the list: what was shown stays
  const ids = [];
  for (const row of $('results').children) {
    const box = row.getBoundingClientRect();
    if (box.bottom > 0 && box.top < window.innerHeight && row.dataset.trackId) ids.push(Number(row.dataset.trackId));
    if (ids.length === 200) break;
  }
  const key = ids.join(',');
  if (key === app.visibleSent) return;
  app.visibleSent = key;
  request('visible', { trackIds: ids }).catch(() => { app.visibleSent = null; });
}

/** `tracks` in runs for `add`, each with its first index: at most 200 tracks and about 48 KB of
 *  JSON a request, so a message stays within the 64 KiB a WebSocket message and a line to previewd
 *  may be (a page of 50 films with long descriptions is more than that). */
function addChunks(tracks) {
  const chunks = [];
  const utf8 = new TextEncoder();
  let start = 0, size = 0;
  tracks.forEach((track, i) => {
    const bytes = utf8.encode(JSON.stringify(track)).length + 1;
    if (i > start && (i - start === 200 || size + bytes > 48000)) { chunks.push([start, tracks.slice(start, i)]); start = i; size = 0; }
    size += bytes;
  });
  if (start < tracks.length) chunks.push([start, tracks.slice(start)]);
  return chunks;
}

function addResult(index, next) {
  const track = app.shown[index];
  if (!track) return;
  const args = { tracks: [track] };
  if (next) args.at = 'next';
  request('add', args).then((answer) => {
    if (answer.notQueued && answer.notQueued.length) toast(`Not queued: ${answer.notQueued[0].reason}`);
    else toast(next ? `“${text(track.trackName)}” plays next` : `“${text(track.trackName)}” added to the queue`);
  }, showError);
}

function selectTab(tab) {
  if (!TABS[tab] && tab !== 'top') return;
  const previous = app.tab;
  app.tab = tab;
  for (const button of document.querySelectorAll('.tab')) button.setAttribute('aria-selected', String(button.dataset.tab === tab));
  const top = tab === 'top';
  $('search').classList.toggle('chart', top);
  $('refresh').hidden = !top;
  $('term').disabled = top;
  $('per-page').disabled = top;
  if (top) {
    app.results = [];
    renderResults();
    chart();
  } else if (previous !== tab || previous === 'top') {
    app.results = [];
    renderResults();
    search();
  }
}

// ---------------------------------------------------------------- player

function currentTrack() { return (app.status && app.status.track) || null; }

function currentPosition() {
  const status = app.status;
  if (!status) return 0;
  let position = app.anchor.positionMs;
  if (status.state === 'playing') position += performance.now() - app.anchor.at;
  const durationMs = status.durationMs;
  if (typeof durationMs === 'number' && durationMs > 0) position = Math.min(position, durationMs);
  return Math.max(0, position);
}

function renderPlayer(trackChanged) {
  const status = app.status;
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
function renderArtwork(cached) {
  const status = app.status;
  const id = status && status.track ? status.id : null;
  const src = typeof id === 'number' ? `/art/item/${id}` : '';
  const tall = status && status.track ? isMovie(status.track) : false;
  const again = cached && src ? `${src}?found=${++app.artworkTries}` : null;
  for (const img of [$('artwork'), $('mini-art')]) {
    const retry = again && img.dataset.src === src && !img.getAttribute('src');
    if (img.dataset.src === src && !retry) continue;
    img.dataset.src = src;
    setThumbnail(img.parentElement, retry ? again : (src || null), tall);
  }
}

function renderTransport() {
  const state = app.status ? app.status.state : 'idle';
  const playing = state === 'playing' || state === 'loading';
  $('toggle').setAttribute('aria-label', playing ? 'Pause' : 'Play');
  $('toggle-icon').setAttribute('href', playing ? '#i-pause' : '#i-play');
  $('mini-state').querySelector('use').setAttribute('href', playing ? '#i-pause' : '#i-play');
  $('player').dataset.state = state;
  if (state === 'playing') startFrames(); else { stopFrames(); renderPosition(); }
}

function renderVolume() {
  const status = app.status;
  if (!status || typeof status.volume !== 'number') return;
  if (document.activeElement !== $('volume') || !app.volumeTimer) $('volume').value = String(status.volume);
  $('volume-value').textContent = String(status.volume);
  $('mute').setAttribute('aria-pressed', String(!!status.muted));
  $('mute').setAttribute('aria-label', status.muted ? 'Unmute' : 'Mute');
  $('mute-icon').setAttribute('href', status.muted ? '#i-muted' : '#i-volume');
}

function renderModes() {
  const status = app.status;
  if (!status) return;
  const repeat = status.repeat || 'off';
  $('repeat').setAttribute('aria-pressed', String(repeat !== 'off'));
  $('repeat').setAttribute('aria-label', `Repeat: ${repeat}`);
  $('repeat-one').hidden = repeat !== 'one';
  $('shuffle').setAttribute('aria-pressed', String(!!status.shuffle));
  $('shuffle').setAttribute('aria-label', status.shuffle ? 'Shuffle: on' : 'Shuffle: off');
}

function renderPosition() {
  const status = app.status;
  const range = $('position');
  const durationMs = status && typeof status.durationMs === 'number' && status.durationMs > 0 ? status.durationMs
    : (currentTrack() && typeof currentTrack().trackTimeMillis === 'number' ? Math.min(currentTrack().trackTimeMillis, 30000) : 0);
  range.disabled = !currentTrack() || !durationMs;
  if (app.seeking) return;
  const position = currentPosition();
  range.max = String(Math.max(1, Math.round(durationMs)));
  range.value = String(Math.round(position));
  range.setAttribute('aria-valuetext', `${duration(position)} of ${duration(durationMs)}`);
  $('elapsed').textContent = duration(position) || '0:00';
  $('remaining').textContent = `-${duration(Math.max(0, durationMs - position)) || '0:00'}`;
}

// The bar moves on its own between the position ticks, one frame at a time, only while playing and seen.
function startFrames() {
  if (app.frame || !app.status || app.status.state !== 'playing' || document.visibilityState !== 'visible' || $('player').hidden) return;
  const step = () => {
    app.frame = 0;
    renderPosition();
    if (app.status && app.status.state === 'playing' && document.visibilityState === 'visible' && !$('player').hidden) {
      app.frame = requestAnimationFrame(step);
    }
  };
  app.frame = requestAnimationFrame(step);
}

function stopFrames() {
  if (app.frame) cancelAnimationFrame(app.frame);
  app.frame = 0;
}

function queueTitle(item) {
  const track = item && item.track;
  return track ? (text(track.trackName) || 'Untitled') : 'Untitled';
}

function renderUpNext() {
  const status = app.status;
  const nextId = status ? status.nextId : null;
  const item = nextId === null || nextId === undefined ? null : app.queue.items.find((i) => i.id === nextId);
  $('up-next').textContent = item ? `Up next: ${queueTitle(item)}${item.track && item.track.artistName ? ' · ' + text(item.track.artistName) : ''}` : '';
}

function renderQueue() {
  const list = $('queue');
  if (list.classList.contains('dragging')) return;   // redrawn when the drag ends
  const currentId = app.status ? app.status.id : null;
  // Drawn again only when something shown changed, and the focus stays on the row it was on.
  const drawn = JSON.stringify([currentId, app.queue.items.map((i) => [i.id, i.failed, queueTitle(i)])]);
  if (drawn === app.queueDrawn) { renderUpNext(); return; }
  app.queueDrawn = drawn;
  const focused = list.contains(document.activeElement) ? document.activeElement : null;
  const focusId = focused ? focused.closest('.qrow').dataset.id : null;
  const focusClass = focused ? ['handle', 'qrow-main', 'remove'].find((c) => focused.classList.contains(c)) : null;
  const template = $('queue-row').content;
  const rows = document.createDocumentFragment();
  app.queue.items.forEach((item, index) => {
    const row = template.firstElementChild.cloneNode(true);
    const title = queueTitle(item);
    const artist = item.track ? text(item.track.artistName) : '';
    row.dataset.index = String(index);
    row.dataset.id = String(item.id);
    row.querySelector('.qrow-title').textContent = title;
    row.querySelector('.qrow-sub').textContent = item.failed ? `Cannot play${item.error ? ': ' + text(item.error) : ''}` : artist;
    row.classList.toggle('failed', !!item.failed);
    const main = row.querySelector('.qrow-main');
    main.setAttribute('aria-label', `Play ${title}${artist ? ' by ' + artist : ''}`);
    if (item.id === currentId) { row.classList.add('current'); main.setAttribute('aria-current', 'true'); }
    row.querySelector('.handle').setAttribute('aria-label', `Move ${title} (arrow keys)`);
    row.querySelector('.remove').setAttribute('aria-label', `Remove ${title}`);
    rows.appendChild(row);
  });
  list.replaceChildren(rows);
  if (focusId !== null && focusClass) {
    const row = list.querySelector(`.qrow[data-id="${CSS.escape(focusId)}"]`);
    if (row) row.querySelector(`.${focusClass}`).focus({ preventScroll: true });
  }
  $('queue-count').textContent = app.queue.items.length ? `(${app.queue.items.length})` : '';
  $('queue-empty').hidden = app.queue.items.length > 0;
  renderUpNext();
}

// Drag to reorder, with pointer events (a finger, a mouse or a pen): the row follows the pointer and
// the others make room; letting go sends one `move`.
function startDrag(event, handle) {
  const row = handle.closest('.qrow');
  const list = $('queue');
  if (!row || event.button > 0) return;
  event.preventDefault();
  const rows = Array.from(list.children);
  const from = rows.indexOf(row);
  const heights = rows.map((r) => r.getBoundingClientRect());
  const startY = event.clientY;
  let to = from;
  handle.setPointerCapture(event.pointerId);
  list.classList.add('dragging');
  row.classList.add('lifted');
  const move = (e) => {
    const dy = e.clientY - startY;
    row.style.transform = `translateY(${dy}px)`;
    const centre = heights[from].top + heights[from].height / 2 + dy;
    to = from;
    for (let i = 0; i < rows.length; i++) {
      const mid = heights[i].top + heights[i].height / 2;
      if (i < from && centre < mid) { to = i; break; }
      if (i > from && centre > mid) to = i;
    }
    rows.forEach((r, i) => {
      if (r === row) return;
      let shift = 0;
      if (from < to && i > from && i <= to) shift = -heights[from].height;
      if (to < from && i >= to && i < from) shift = heights[from].height;
      r.style.transform = shift ? `translateY(${shift}px)` : '';
    });
  };
  const end = () => {
    handle.removeEventListener('pointermove', move);
    handle.removeEventListener('pointerup', end);
    handle.removeEventListener('pointercancel', end);
    rows.forEach((r) => { r.style.transform = ''; });
    row.classList.remove('lifted');
    list.classList.remove('dragging');
    if (to !== from) {
      // Shown at once in the new order; previewd's answer (and its queue event) confirm it.
      const items = app.queue.items.slice();
      const [item] = items.splice(from, 1);
      items.splice(to, 0, item);
      app.queue.items = items;
      renderQueue();
      command('move', { from, to });
    } else {
      renderQueue();
    }
  };
  handle.addEventListener('pointermove', move);
  handle.addEventListener('pointerup', end);
  handle.addEventListener('pointercancel', end);
}

function moveByKey(handle, delta) {
  const row = handle.closest('.qrow');
  const from = Number(row.dataset.index);
  const to = from + delta;
  if (to < 0 || to >= app.queue.items.length) return;
  const items = app.queue.items.slice();
  const [item] = items.splice(from, 1);
  items.splice(to, 0, item);
  app.queue.items = items;
  renderQueue();
  const moved = $('queue').children[to];
  if (moved) moved.querySelector('.handle').focus();
  command('move', { from, to });
}

/** What Share gives, from the status the page already has (as previewd's `share` words it): ready
 *  before the tap, so the share sheet or the copy happens inside the tap's own handler. WebKit allows
 *  neither once the handler has awaited anything. */
function shareText() {
  const track = currentTrack();
  if (!track) return null;
  const title = text(track.trackName) || 'Untitled';
  const artist = text(track.artistName);
  const url = httpURL(track.trackViewUrl);
  const words = `Listening to ${title}${artist ? ' by ' + artist : ''}`;
  return { title, words, line: url ? `${words} — ${url}` : words, url };
}

/** Share, all within the tap: the share sheet where there is one; else the store link copied with
 *  the asynchronous clipboard (a secure context); else (plain http on the LAN, where neither exists)
 *  the link in a field of its own, copied at once when the browser lets it and with a Copy button. */
function share() {
  const shared = shareText();
  if (!shared) return;
  const link = shared.url || shared.line;
  if (typeof navigator.share === 'function') {
    navigator.share({ title: shared.title, text: shared.words, url: shared.url || undefined }).catch((e) => {
      if (!e || e.name !== 'AbortError') openSharePanel(link, false);
    });
    return;
  }
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(link).then(() => toast('Store link copied to the clipboard'),
                                             () => openSharePanel(link, false));
    return;
  }
  openSharePanel(link, true);
}

/** The link in a selectable field with its own Copy button; `copyNow` copies it in this same tap. */
function openSharePanel(link, copyNow) {
  $('share-link').value = link;
  $('share-note').textContent = '';
  $('share-panel').hidden = false;
  if (copyNow) copyShareLink();
  else selectShareLink();
}

function selectShareLink() {
  const field = $('share-link');
  field.focus({ preventScroll: true });
  field.setSelectionRange(0, field.value.length);   // select() alone selects nothing on iOS
}

/** Copies the field's text with the selection and `execCommand('copy')`: synchronous, so it works in
 *  a tap's handler where the asynchronous clipboard does not exist (not a secure context). */
function copyShareLink() {
  selectShareLink();
  let done = false;
  try { done = document.execCommand('copy'); } catch (e) { done = false; }
  $('share-note').textContent = done ? 'Copied to the clipboard.' : 'Select the link and copy it.';
  return done;
}

function closeSharePanel() {
  $('share-panel').hidden = true;
  $('share').focus({ preventScroll: true });
}

// ---------------------------------------------------------------- screens, banner, toast

function showScreen(name) {
  const player = name === 'player';
  $('search').hidden = player;
  $('player').hidden = !player;
  document.body.dataset.screen = name;
  if (player) { renderPosition(); startFrames(); $('back').focus({ preventScroll: true }); } else stopFrames();
  if (!player) $('share-panel').hidden = true;
  window.scrollTo(0, 0);
  placeToast();
}

// The player is a step forward in the history, so a phone's own back gesture returns to the search.
function openPlayer() {
  if (location.hash === '#player') { showScreen('player'); return; }
  app.pushedPlayer = true;
  location.hash = '#player';   // hashchange shows it
}

function closePlayer() {
  if (app.pushedPlayer) { app.pushedPlayer = false; history.back(); return; }
  history.replaceState(null, '', '#search');
  showScreen('search');
}

function showBanner() {
  const banner = $('banner');
  let message = '';
  if (!app.wsOpen && app.linkLost) message = 'No connection to previewd-web. Reconnecting…';
  else if (app.daemonDown) message = 'previewd is not running.';
  banner.textContent = message;
  banner.hidden = !message;
  if (message) fitBanner();
  document.body.classList.toggle('offline', !!message);
  banner.dataset.kind = !app.wsOpen ? 'link' : 'daemon';
  document.body.classList.toggle('live', app.wsOpen && app.daemonUp);
}

function showError(error) {
  if (!error) return;
  if (error.code === 'offline-link') { toast(app.wsOpen ? 'previewd is not running' : 'No connection'); return; }
  toast(typeof error.message === 'string' && error.message ? error.message : 'Invalid answer');
}

/** The room the banner takes is its own height (one line or two, whatever the width), so the header
 *  below it is never covered. */
function fitBanner() {
  const height = $('banner').offsetHeight;
  if (height) document.documentElement.style.setProperty('--banner-height', `${height}px`);
  placeToast();
}

/** A short message for 3.5 s over the title of the header in view, the one place on either screen
 *  that holds no control; a tap dismisses it sooner. */
function toast(message) {
  const box = $('toast');
  const line = document.createElement('span');
  line.className = 'toast-text';
  line.textContent = message;
  box.replaceChildren(line);
  box.hidden = false;
  placeToast();
  clearTimeout(app.toastTimer);
  app.toastTimer = setTimeout(hideToast, 3500);
}

function hideToast() {
  clearTimeout(app.toastTimer);
  $('toast').hidden = true;
}

function placeToast() {
  const box = $('toast');
  if (box.hidden) return;
  const bar = document.querySelector(`#${document.body.dataset.screen === 'player' ? 'player' : 'search'} .bar`);
  const title = bar.querySelector('.bar-title').getBoundingClientRect();
  const frame = bar.getBoundingClientRect();
  box.style.left = `${title.left}px`;
  box.style.width = `${title.width}px`;
  box.style.top = `${frame.top + 4}px`;
  box.style.height = `${Math.max(0, frame.height - 8)}px`;
}

// ---------------------------------------------------------------- wiring

function wire() {
  $('term').addEventListener('input', scheduleSearch);
  $('term').addEventListener('keydown', (e) => { if (e.key === 'Enter') search(); });
  for (const button of document.querySelectorAll('.tab')) button.addEventListener('click', () => selectTab(button.dataset.tab));
  $('per-page').addEventListener('change', () => { if (app.tab !== 'top') search(); });
  $('sort').addEventListener('change', renderResults);
  $('more').addEventListener('click', more);
  $('refresh').addEventListener('click', chart);
  document.addEventListener('scroll', scheduleVisible, { passive: true, capture: true });
  window.addEventListener('resize', scheduleVisible, { passive: true });
  $('results').addEventListener('click', (e) => {
    const row = e.target.closest('.row');
    if (!row) return;
    const index = Number(row.dataset.index);
    if (e.target.closest('.play-next')) addResult(index, true);
    else if (e.target.closest('.add')) addResult(index, false);
    else if (e.target.closest('.row-main')) playResult(index);
  });
  $('open-player').addEventListener('click', openPlayer);
  $('mini').addEventListener('click', openPlayer);
  $('back').addEventListener('click', closePlayer);
  $('toggle').addEventListener('click', () => command('toggle'));
  $('prev').addEventListener('click', () => command('prev'));
  $('next').addEventListener('click', () => command('next'));
  $('repeat').addEventListener('click', () => {
    const order = { off: 'all', all: 'one', one: 'off' };
    command('repeat', { mode: order[(app.status && app.status.repeat) || 'off'] || 'off' });
  });
  $('shuffle').addEventListener('click', () => command('shuffle', { on: !(app.status && app.status.shuffle) }));
  $('mute').addEventListener('click', () => command('mute', { on: !(app.status && app.status.muted) }));
  $('mark').addEventListener('click', () => command(app.status && app.status.marked ? 'unmark' : 'mark'));
  $('share').addEventListener('click', share);
  $('share-copy').addEventListener('click', copyShareLink);
  $('share-link').addEventListener('click', selectShareLink);
  $('share-close').addEventListener('click', closeSharePanel);
  $('share-panel').addEventListener('keydown', (e) => { if (e.key === 'Escape') closeSharePanel(); });
  $('toast').addEventListener('click', hideToast);
  new ResizeObserver(fitBanner).observe($('banner'));
  window.addEventListener('resize', placeToast);
  window.addEventListener('scroll', placeToast, { passive: true });
  $('store').addEventListener('click', (e) => { if (!$('store').getAttribute('href')) e.preventDefault(); });

  const position = $('position');
  position.addEventListener('input', () => {
    app.seeking = true;
    const value = Number(position.value);
    $('elapsed').textContent = duration(value);
    $('remaining').textContent = `-${duration(Math.max(0, Number(position.max) - value))}`;
  });
  position.addEventListener('change', () => {
    const ms = Number(position.value);
    app.seeking = false;
    app.anchor = { positionMs: ms, at: performance.now() };
    command('seek', { position: ms / 1000 });
  });

  const volume = $('volume');
  volume.addEventListener('input', () => {
    $('volume-value').textContent = volume.value;
    clearTimeout(app.volumeTimer);
    app.volumeTimer = setTimeout(() => { app.volumeTimer = 0; command('volume', { level: Number(volume.value) }); }, 120);
  });
  volume.addEventListener('change', () => {
    clearTimeout(app.volumeTimer);
    app.volumeTimer = 0;
    command('volume', { level: Number(volume.value) });
  });

  const queue = $('queue');
  queue.addEventListener('click', (e) => {
    const row = e.target.closest('.qrow');
    if (!row) return;
    const id = Number(row.dataset.id);
    if (e.target.closest('.remove')) command('remove', { id });
    else if (e.target.closest('.qrow-main')) command('play', { id });
  });
  queue.addEventListener('pointerdown', (e) => {
    const handle = e.target.closest('.handle');
    if (handle) startDrag(e, handle);
  });
  queue.addEventListener('keydown', (e) => {
    const handle = e.target.closest('.handle');
    if (!handle) return;
    if (e.key === 'ArrowUp') { e.preventDefault(); moveByKey(handle, -1); }
    if (e.key === 'ArrowDown') { e.preventDefault(); moveByKey(handle, 1); }
  });

  // Space plays and pauses, the arrows seek by 5 s, when the keys are not someone else's.
  document.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target;
    if (target.closest && target.closest('input, select, textarea, button, a, [contenteditable]')) return;
    if (e.key === ' ') { e.preventDefault(); command('toggle'); }
    else if (e.key === 'ArrowRight' && app.status && app.status.track) { e.preventDefault(); command('seek', { delta: 5 }); }
    else if (e.key === 'ArrowLeft' && app.status && app.status.track) { e.preventDefault(); command('seek', { delta: -5 }); }
  });

  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') {
      app.backoff = 500;
      if (!app.wsOpen) connect();
      else if (app.daemonUp) catchUp();
      startFrames();
    } else {
      stopFrames();
    }
  });
  window.addEventListener('hashchange', () => {
    if (location.hash !== '#player') app.pushedPlayer = false;
    showScreen(location.hash === '#player' ? 'player' : 'search');
  });
}

wire();
// `/?q=TERM` opens with that search made (a bookmark, a home-screen shortcut).
const openingQuery = new URLSearchParams(location.search).get('q');
if (openingQuery) { $('term').value = openingQuery.slice(0, 200); app.openingQuery = true; }
showScreen(location.hash === '#player' ? 'player' : 'search');
renderPlayer();
showBanner();
connect();
