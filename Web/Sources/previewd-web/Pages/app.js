// previewd's web remote, the page's entry module: it wires the views and opens the link. No framework,
// no build step, nothing from another origin (CSP default-src 'self'). Text from the catalog is
// untrusted: it goes into the page through textContent only, and a link is followed only when it is
// http(s). The modules (modules/): link.js the protocol client, events.js the event table, remote.js
// previewd's status and queue, state.js the state by concern, one module per view (search, player,
// queue, share, ui), playhere.js the page's own playback, outputs.js the box's outputs, radio.js
// the radio switch, network.js the wait for the network.
import { connect, link, reconnectNow } from './modules/link.js';
import { catchUp } from './modules/remote.js';
import { renderPlayer, startFrames, stopFrames, wirePlayer } from './modules/player.js';
import { wireNetwork } from './modules/network.js';
import { wireOutputs } from './modules/outputs.js';
import { mediaActions, probe, wirePlayHere } from './modules/playhere.js';
import { wireQueue } from './modules/queue.js';
import { wireRadio } from './modules/radio.js';
import { wireSearch } from './modules/search.js';
import { wireShare } from './modules/share.js';
import { showScreen, toast, wireUI } from './modules/ui.js';

wireUI();
wireSearch();
wirePlayer();
wireQueue();
wireShare();
wirePlayHere();
wireOutputs();
wireRadio();
wireNetwork();

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') {
    if (!link.wsOpen) reconnectNow();
    else if (link.daemonUp) catchUp();
    startFrames();
  } else {
    stopFrames();
  }
});

// The page's handles for the browser tests and a console: the link (its WebSocket), the media
// session's actions (which WebDriver cannot press), what the page plays here, its toast and screens.
window.previewd = { link, mediaActions, playHere: probe, toast, showScreen };

showScreen(location.hash === '#player' ? 'player' : 'search');
renderPlayer();
connect();
