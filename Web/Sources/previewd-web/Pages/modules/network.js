// Waiting for the network: while previewd holds at a track whose preview's host does not answer
// (status and event `waiting`), the banner says so in previewd's own words ("waiting for the network:
// the preview server (HOST) does not answer since 0:12"); it goes when the track plays or the wait ends.
import { on } from './events.js';
import { playback } from './state.js';
import { watchStatus } from './remote.js';
import { setBanner } from './ui.js';

function show(waiting) {
  setBanner('network', waiting && typeof waiting.message === 'string' ? waiting.message : null, 'network', 2);
}

export function wireNetwork() {
  watchStatus((status) => show(status && status.waiting));
  on('waiting', (e) => {
    if (playback.status) playback.status.waiting = e.waiting || null;
    show(e.waiting);
  });
}
