// Formatting of the catalog's untrusted values: strings only through textContent, links only when http(s).

export function text(value) { return typeof value === 'string' ? value : ''; }

export function duration(ms) {
  if (typeof ms !== 'number' || !isFinite(ms) || ms < 0) return '';
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}` : `${m}:${String(s).padStart(2, '0')}`;
}

export function releaseDate(value) {
  if (typeof value !== 'string' || !value) return '';
  const date = new Date(value);
  if (isNaN(date.getTime())) return '';
  return date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

export function price(track) {
  const amount = track.trackPrice;
  if (typeof amount !== 'number' || amount < 0) return 'not for sale';
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: text(track.currency) || 'USD' }).format(amount);
  } catch (e) {
    return amount.toFixed(2);
  }
}

export function httpURL(value) {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch (e) {
    return null;
  }
}

export function isMovie(track) { return /movie|tv-episode|music-video/.test(text(track.kind)); }
