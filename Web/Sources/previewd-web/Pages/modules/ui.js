// What every screen shares: which screen shows, the banner, the toast, errors, pictures in frames.
import { $ } from './dom.js';
import { on } from './events.js';
import { link, watchLink } from './link.js';
import { search, screen } from './state.js';
import { renderPosition, startFrames, stopFrames } from './player.js';

export function showScreen(name) {
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
export function openPlayer() {
  if (location.hash === '#player') { showScreen('player'); return; }
  screen.pushedPlayer = true;
  location.hash = '#player';   // hashchange shows it
}

export function closePlayer() {
  if (screen.pushedPlayer) { screen.pushedPlayer = false; history.back(); return; }
  history.replaceState(null, '', '#search');
  showScreen('search');
}

/** Says `message` in the banner for `reason` (`null` takes it away). Of the reasons said, the one of
 *  lowest `rank` shows: the link's own (0) before previewd's (1) before any other (10). */
export function setBanner(reason, message, kind = reason, rank = 10) {
  if (message) screen.banners.set(reason, { message, kind, rank });
  else screen.banners.delete(reason);
  showBanner();
}

export function showBanner() {
  const banner = $('banner');
  let shown = null;
  for (const entry of screen.banners.values()) if (!shown || entry.rank < shown.rank) shown = entry;
  const message = shown ? shown.message : '';
  banner.textContent = message;
  banner.hidden = !message;
  if (message) fitBanner();
  document.body.classList.toggle('offline', !!message);
  banner.dataset.kind = shown ? shown.kind : (!link.wsOpen ? 'link' : 'daemon');
  document.body.classList.toggle('live', link.wsOpen && link.daemonUp);
}

// The link's own banner: no connection to previewd-web, or previewd not running.
watchLink(() => {
  setBanner('link', !link.wsOpen && link.linkLost ? 'No connection to previewd-web. Reconnecting…' : null, 'link', 0);
  setBanner('daemon', link.wsOpen && link.daemonDown ? 'previewd is not running.' : null, 'daemon', 1);
});

export function showError(error) {
  if (!error) return;
  if (error.code === 'offline-link') { toast(link.wsOpen ? 'previewd is not running' : 'No connection'); return; }
  toast(typeof error.message === 'string' && error.message ? error.message : 'Invalid answer');
}

/** The room the banner takes is its own height (one line or two, whatever the width), so the header
 *  below it is never covered. */
export function fitBanner() {
  const height = $('banner').offsetHeight;
  if (height) document.documentElement.style.setProperty('--banner-height', `${height}px`);
  placeToast();
}

/** A short message for 3.5 s over the title of the header in view, the one place on either screen
 *  that holds no control; a tap dismisses it sooner. */
export function toast(message) {
  const box = $('toast');
  const line = document.createElement('span');
  line.className = 'toast-text';
  line.textContent = message;
  box.replaceChildren(line);
  box.hidden = false;
  placeToast();
  clearTimeout(screen.toastTimer);
  screen.toastTimer = setTimeout(hideToast, 3500);
}

export function hideToast() {
  clearTimeout(screen.toastTimer);
  $('toast').hidden = true;
}

export function placeToast() {
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

/** An image in its frame: the placeholder shows until it loads, and stays when there is none. */
export function setThumbnail(frame, src, tall) {
  const img = frame.querySelector('img');
  frame.classList.add('placeholder');
  frame.classList.toggle('tall', !!tall);
  img.classList.remove('loaded');
  img.onload = () => { frame.classList.remove('placeholder'); img.classList.add('loaded'); };
  img.onerror = () => { img.removeAttribute('src'); };
  if (src) img.src = src; else img.removeAttribute('src');
}

// previewd's errors as a toast; a failed search already says so in its own words on the search screen.
on('error', (e) => {
  if (typeof e.message !== 'string') return;
  const message = e.message;
  setTimeout(() => { if (performance.now() - search.failedAt > 2000) toast(message); }, 300);
});

export function wireUI() {
  $('toast').addEventListener('click', hideToast);
  new ResizeObserver(fitBanner).observe($('banner'));
  window.addEventListener('resize', placeToast);
  window.addEventListener('scroll', placeToast, { passive: true });
  window.addEventListener('hashchange', () => {
    if (location.hash !== '#player') screen.pushedPlayer = false;
    showScreen(location.hash === '#player' ? 'player' : 'search');
  });
}
