// The queue on the player screen: its rows, "up next", tap to play, remove, drag or arrow keys to move.
import { $ } from './dom.js';
import { text } from './format.js';
import { command } from './remote.js';
import { playback, queue } from './state.js';

function queueTitle(item) {
  const track = item && item.track;
  return track ? (text(track.trackName) || 'Untitled') : 'Untitled';
}

export function renderUpNext() {
  const status = playback.status;
  const nextId = status ? status.nextId : null;
  const item = nextId === null || nextId === undefined ? null : queue.items.find((i) => i.id === nextId);
  $('up-next').textContent = item ? `Up next: ${queueTitle(item)}${item.track && item.track.artistName ? ' · ' + text(item.track.artistName) : ''}` : '';
}

export function renderQueue() {
  const list = $('queue');
  if (list.classList.contains('dragging')) return;   // redrawn when the drag ends
  const currentId = playback.status ? playback.status.id : null;
  // Drawn again only when something shown changed, and the focus stays on the row it was on.
  const drawn = JSON.stringify([currentId, queue.items.map((i) => [i.id, i.failed, queueTitle(i)])]);
  if (drawn === queue.drawn) { renderUpNext(); return; }
  queue.drawn = drawn;
  const focused = list.contains(document.activeElement) ? document.activeElement : null;
  const focusId = focused ? focused.closest('.qrow').dataset.id : null;
  const focusClass = focused ? ['handle', 'qrow-main', 'remove'].find((c) => focused.classList.contains(c)) : null;
  const template = $('queue-row').content;
  const rows = document.createDocumentFragment();
  queue.items.forEach((item, index) => {
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
  $('queue-count').textContent = queue.items.length ? `(${queue.items.length})` : '';
  $('queue-empty').hidden = queue.items.length > 0;
  renderUpNext();
}

/** Moves the row at `from` to `to` at once on screen; previewd's answer (and its queue event) confirm it. */
function move(from, to) {
  const items = queue.items.slice();
  const [item] = items.splice(from, 1);
  items.splice(to, 0, item);
  queue.items = items;
  renderQueue();
  command('move', { from, to });
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
  const follow = (e) => {
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
    handle.removeEventListener('pointermove', follow);
    handle.removeEventListener('pointerup', end);
    handle.removeEventListener('pointercancel', end);
    rows.forEach((r) => { r.style.transform = ''; });
    row.classList.remove('lifted');
    list.classList.remove('dragging');
    if (to !== from) move(from, to);
    else renderQueue();
  };
  handle.addEventListener('pointermove', follow);
  handle.addEventListener('pointerup', end);
  handle.addEventListener('pointercancel', end);
}

function moveByKey(handle, delta) {
  const row = handle.closest('.qrow');
  const from = Number(row.dataset.index);
  const to = from + delta;
  if (to < 0 || to >= queue.items.length) return;
  move(from, to);
  const moved = $('queue').children[to];
  if (moved) moved.querySelector('.handle').focus();
}

export function wireQueue() {
  const list = $('queue');
  list.addEventListener('click', (e) => {
    const row = e.target.closest('.qrow');
    if (!row) return;
    const id = Number(row.dataset.id);
    if (e.target.closest('.remove')) command('remove', { id });
    else if (e.target.closest('.qrow-main')) command('play', { id });
  });
  list.addEventListener('pointerdown', (e) => {
    const handle = e.target.closest('.handle');
    if (handle) startDrag(e, handle);
  });
  list.addEventListener('keydown', (e) => {
    const handle = e.target.closest('.handle');
    if (!handle) return;
    if (e.key === 'ArrowUp') { e.preventDefault(); moveByKey(handle, -1); }
    if (e.key === 'ArrowDown') { e.preventDefault(); moveByKey(handle, 1); }
  });
}
