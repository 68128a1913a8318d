// The protocol client: one WebSocket to /ws carrying previewd's own protocol (docs/PROTOCOL.md) and
// its events. It knows no view: answers resolve promises, events go to events.js's table, and the
// link's own state (connected, previewd up or down) goes to whoever watches it.
import { dispatch } from './events.js';

/** The link's state, read by the views (written only here). */
export const link = {
  ws: null,
  wsOpen: false,
  linkLost: false,           // the WebSocket closed (or never opened): "no connection" is said
  daemonUp: false,
  daemonDown: false,         // previewd-web said previewd is gone
};

let nextId = 1;
const pending = new Map();   // request id → {resolve, reject, cmd}
let backoff = 500;
let reconnectTimer = 0;
const watchers = [];

/** Calls `watcher()` whenever `link`'s state changes. */
export function watchLink(watcher) { watchers.push(watcher); }

function changed() { for (const watcher of watchers) watcher(); }

export function connect() {
  clearTimeout(reconnectTimer);
  reconnectTimer = 0;
  if (link.ws && link.ws.readyState <= WebSocket.OPEN) return;
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  let ws;
  try {
    ws = new WebSocket(`${scheme}//${location.host}/ws`);
  } catch (e) {
    scheduleReconnect();
    return;
  }
  link.ws = ws;
  ws.addEventListener('open', () => {
    if (link.ws !== ws) return;
    link.wsOpen = true;
    link.linkLost = false;
    backoff = 500;
    changed();
  });
  ws.addEventListener('message', (message) => {
    if (link.ws !== ws) return;
    let object;
    try { object = JSON.parse(message.data); } catch (e) { return; }
    if (object && typeof object === 'object') receive(object);
  });
  ws.addEventListener('close', () => {
    if (link.ws !== ws) return;
    link.ws = null;
    link.wsOpen = false;
    link.linkLost = true;
    link.daemonUp = false;
    link.daemonDown = false;   // unknown until the next WebSocket says
    failPending('no connection');
    changed();
    scheduleReconnect();
  });
}

/** Visible again: reconnects at once (a hidden page does not retry). */
export function reconnectNow() {
  backoff = 500;
  if (!link.wsOpen) connect();
}

function scheduleReconnect() {
  if (reconnectTimer || document.visibilityState === 'hidden') return;   // visible again reconnects
  const wait = backoff;
  backoff = Math.min(backoff * 2, 10000);
  reconnectTimer = setTimeout(() => { reconnectTimer = 0; connect(); }, wait);
}

function failPending(reason) {
  for (const [, entry] of pending) entry.reject({ code: 'offline-link', message: reason });
  pending.clear();
}

/** Sends one request; resolves with its result, rejects with previewd's error object. */
export function request(cmd, args) {
  return new Promise((resolve, reject) => {
    if (!link.ws || !link.wsOpen) { reject({ code: 'offline-link', message: 'no connection' }); return; }
    const id = nextId++;
    const body = { id, cmd };
    if (args) body.args = args;
    pending.set(id, { resolve, reject, cmd });
    link.ws.send(JSON.stringify(body));
  });
}

function receive(object) {
  if ('event' in object) {
    if (object.event === 'daemon') {
      link.daemonUp = object.state === 'up';
      link.daemonDown = object.state === 'down';
      if (!link.daemonUp) failPending('previewd is not running');
      changed();
    }
    dispatch(object);
    return;
  }
  const entry = pending.get(object.id);
  if (!entry) return;
  pending.delete(object.id);
  if (object.ok === true) entry.resolve(object.result);
  else entry.reject(object.error && typeof object.error === 'object' ? object.error : { code: 'invalid-data', message: 'invalid answer' });
}
