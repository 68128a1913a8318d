// previewd's events (docs/PROTOCOL.md), dispatched from one table: event name → its handlers, in the
// order they were added. A view or a feature adds its own with `on` and nothing else changes.

const table = new Map();

/** Calls `handler(event)` for every event named `name` (`daemon`, `track`, `queue`, …). */
export function on(name, handler) {
  if (!table.has(name)) table.set(name, []);
  table.get(name).push(handler);
}

/** Adds every entry of `handlers` (`{name: handler}`). */
export function onAll(handlers) {
  for (const [name, handler] of Object.entries(handlers)) on(name, handler);
}

export function dispatch(event) {
  for (const handler of table.get(event.event) || []) handler(event);
}
