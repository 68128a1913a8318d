// Share on the player screen: the share sheet, the clipboard, or a field with its own Copy button.
import { $ } from './dom.js';
import { httpURL, text } from './format.js';
import { currentTrack } from './remote.js';
import { toast } from './ui.js';

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

export function wireShare() {
  $('share').addEventListener('click', share);
  $('share-copy').addEventListener('click', copyShareLink);
  $('share-link').addEventListener('click', selectShareLink);
  $('share-close').addEventListener('click', closeSharePanel);
  $('share-panel').addEventListener('keydown', (e) => { if (e.key === 'Escape') closeSharePanel(); });
}
