// The search screen: search as you type, the tabs, the chart, sorting, tapping a result to play.
import { $ } from './dom.js';
import { on } from './events.js';
import { duration, isMovie, price, releaseDate, text } from './format.js';
import { request } from './link.js';
import { soundStarting } from './playhere.js';
import { applyStatus } from './remote.js';
import { search as state } from './state.js';
import { openPlayer, setThumbnail, showError, toast } from './ui.js';

const TABS = {
  all: { media: 'all' },
  songs: { media: 'music', entity: 'song' },
  movies: { media: 'movie' },
};

const tapWatchers = [];

/** Calls `watcher()` at a tap on a result, within the tap (a media element may start there). */
export function watchTaps(watcher) { tapWatchers.push(watcher); }

function tabArgs(tab) { return TABS[tab] || TABS.all; }

function scheduleSearch() {
  performance.mark('input');   // scripts/bench-web: keystroke → results drawn
  clearTimeout(state.timer);
  state.timer = setTimeout(search, 300);
}

export function search() {
  clearTimeout(state.timer);
  if (state.tab === 'top') return;
  const term = $('term').value.trim();
  const seq = ++state.seq;
  if (!term) {
    state.results = [];
    state.mayHaveMore = false;
    state.lastSearch = null;
    setLoading(false, 'Type to search the store.');
    renderResults();
    return;
  }
  const limit = Number($('per-page').value);
  const args = Object.assign({ term, queue: false, limit }, tabArgs(state.tab));
  setLoading(true, `Searching for “${term}”…`);
  request('search', args).then((answer) => {
    if (seq !== state.seq) return;
    state.lastSearch = { term, tab: state.tab, limit };
    takeResults(answer, false);
  }, (error) => {
    if (seq !== state.seq) return;
    searchFailed(error, term);
  });
}

function more() {
  const seq = ++state.seq;
  setLoading(true, 'Loading more…');
  $('more').disabled = true;
  request('more', { queue: false }).then((answer) => {
    if (seq !== state.seq) return;
    takeResults(answer, true);
  }, (error) => {
    if (seq !== state.seq) return;
    if (error.code === 'no-results' || error.code === 'rejected') {
      state.mayHaveMore = false;
      setLoading(false, resultsMessage());
      renderResults();
    } else {
      searchFailed(error, null, true);
    }
  }).finally(() => { $('more').disabled = false; });
}

function chart() {
  const seq = ++state.seq;
  setLoading(true, 'Loading the top songs…');
  request('top', { queue: false, limit: 50 }).then((answer) => {
    if (seq !== state.seq) return;
    state.chartLoaded = true;
    takeResults(answer, false);
    state.mayHaveMore = false;
    renderResults();
  }, (error) => {
    if (seq !== state.seq) return;
    searchFailed(error, null);
  });
}

function takeResults(answer, append) {
  if (!answer || !Array.isArray(answer.results)) {
    searchFailed({ code: 'invalid-data' }, null);
    return;
  }
  const tracks = answer.results.filter((r) => r && typeof r === 'object');
  state.results = append ? state.results.concat(tracks) : tracks;
  state.mayHaveMore = state.tab !== 'top' && answer.mayHaveMore === true;
  setLoading(false, resultsMessage());
  renderResults();
}

function resultsMessage() {
  const n = state.results.length;
  if (state.tab === 'top') return n ? `Top ${n} songs` : 'The chart is empty.';
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
  if (code !== 'no-results') state.failedAt = performance.now();
  if (!keep) {
    state.results = [];
    state.mayHaveMore = false;
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
  const list = state.results.map((track, index) => ({ track, index }));
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
  state.shown = sortedResults();
  const list = $('results');
  const template = $('result-row').content;
  const rows = document.createDocumentFragment();
  state.shown.forEach((track, i) => {
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
  $('more').hidden = !state.mayHaveMore || state.tab === 'top';
  performance.mark('results-drawn');   // scripts/bench-web: page load and keystroke → results drawn
  scheduleVisible();
}

/** Tapping a result: the results on screen become the queue and the one tapped plays, in one
 *  `add` (`replace`, `play`: no moment when the queue is empty, and previewd has the first seconds
 *  of what is on screen ready). By track id when every result has one (previewd keeps the tracks it
 *  answered), else the tracks themselves; past the first run, the rest is appended. */
async function playResult(index) {
  performance.mark('tap');   // scripts/bench-web: tap → audible, from the page's own click
  const tracks = state.shown.slice();
  if (!tracks[index]) return;
  for (const watcher of tapWatchers) watcher();
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
    // Playing here, the player screen waits for the track's first samples (at most 250 ms).
    const starting = soundStarting();
    if (starting) Promise.race([starting, new Promise((resolve) => setTimeout(resolve, 250))]).then(openPlayer);
    else openPlayer();
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

/** The rows on screen, told to previewd a moment after the list scrolls or is drawn, so it keeps
 *  their first seconds ready for a tap (`visible`). Nothing is sent when they did not change. */
function scheduleVisible() {
  clearTimeout(state.visibleTimer);
  state.visibleTimer = setTimeout(sendVisible, 200);
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
  if (key === state.visibleSent) return;
  state.visibleSent = key;
  request('visible', { trackIds: ids }).catch(() => { state.visibleSent = null; });
}

function addResult(index, next) {
  const track = state.shown[index];
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
  const previous = state.tab;
  state.tab = tab;
  for (const button of document.querySelectorAll('.tab')) button.setAttribute('aria-selected', String(button.dataset.tab === tab));
  const top = tab === 'top';
  $('search').classList.toggle('chart', top);
  $('refresh').hidden = !top;
  $('term').disabled = top;
  $('per-page').disabled = top;
  if (top) {
    state.results = [];
    renderResults();
    chart();
  } else if (previous !== tab || previous === 'top') {
    state.results = [];
    renderResults();
    search();
  }
}

// `/?q=TERM`: searched once previewd answers.
on('daemon', (e) => {
  if (e.state === 'up' && state.openingQuery) { state.openingQuery = false; search(); }
});

export function wireSearch() {
  $('term').addEventListener('input', scheduleSearch);
  $('term').addEventListener('keydown', (e) => { if (e.key === 'Enter') search(); });
  for (const button of document.querySelectorAll('.tab')) button.addEventListener('click', () => selectTab(button.dataset.tab));
  $('per-page').addEventListener('change', () => { if (state.tab !== 'top') search(); });
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
  // `/?q=TERM` opens with that search made (a bookmark, a home-screen shortcut).
  const openingQuery = new URLSearchParams(location.search).get('q');
  if (openingQuery) { $('term').value = openingQuery.slice(0, 200); state.openingQuery = true; }
}
