// The page's state, one object per concern; each is written by the module named beside it.

/** What previewd says it plays (remote.js), and the player screen's own (player.js). */
export const playback = {
  status: null,                        // previewd's status object
  anchor: { positionMs: 0, at: 0 },    // the last position heard and when (performance.now())
  seeking: false,
  frame: 0,
  volumeTimer: 0,
  artworkTries: 0,                     // a picture asked again once previewd has it gets a URL of its own
};

/** The queue as last asked (remote.js) and as last drawn (queue.js). */
export const queue = {
  version: null,
  items: [],
  asking: false,
  again: false,
  drawn: '',
};

/** The search screen's (search.js). */
export const search = {
  tab: 'all',
  results: [],               // the results as previewd answered them (catalog order)
  shown: [],                 // the results in the order on screen
  mayHaveMore: false,
  seq: 0,
  timer: 0,
  lastSearch: null,          // {term, tab, limit} of what the results are
  openingQuery: false,       // /?q=TERM: search for it once previewd answers
  chartLoaded: false,
  visibleTimer: 0,
  visibleSent: null,         // the track ids last told to previewd as on screen (`visible`)
  failedAt: -Infinity,
};

/** The screens, the banner and the toast (ui.js). */
export const screen = {
  pushedPlayer: false,
  toastTimer: 0,
  banners: new Map(),        // reason → {message, kind, rank}: the lowest rank shows
};
