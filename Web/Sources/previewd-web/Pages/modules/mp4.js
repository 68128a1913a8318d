// A preview as an iTunes store serves it (a plain MP4/M4A: ftyp, moov with one sample table, mdat)
// rewritten as what a Media Source buffer takes: fragmented MP4, an init segment (the audio track's
// own sample description, copied as it is) and media segments (moof + mdat) of the samples the bytes
// so far hold. Only AAC (LC, HE-AAC, HE-AAC v2) is rewritten; anything else (MP3 in MP4, a file
// already fragmented, a damaged one) throws an Mp4Error and the page plays that track in an element.
//
// The encoder's delay and padding (AAC starts with ~1024–2112 samples of priming and ends on a whole
// frame) come from the iTunes `iTunSMPB` tag when there is one, else from the edit list (`elst`), as
// previewd's own decoder takes them from the edit list: the page trims them with the buffer's append
// window, so one preview follows another sample-exact where the engine trims partial frames.

/** A preview this module cannot rewrite; `message` says why. */
export class Mp4Error extends Error {}

const fail = (message) => { throw new Mp4Error(message); };

const u32 = (b, at) => ((b[at] << 24) >>> 0) + (b[at + 1] << 16) + (b[at + 2] << 8) + b[at + 3];
const u64 = (b, at) => u32(b, at) * 2 ** 32 + u32(b, at + 4);
const fourcc = (b, at) => String.fromCharCode(b[at], b[at + 1], b[at + 2], b[at + 3]);

/** The boxes in `b` from `start` to `end`: {type, start, end, body} (body: where the payload starts);
 *  a box that runs past `end` is given with its declared end (the caller waits for more bytes). */
function boxes(b, start, end) {
  const found = [];
  for (let at = start; at + 8 <= end;) {
    let size = u32(b, at), body = at + 8;
    if (size === 1) {
      if (at + 16 > end) break;
      size = u64(b, at + 8); body = at + 16;
    } else if (size === 0) {
      size = end - at;
    }
    if (size < body - at) fail(`a box of ${size} bytes at ${at}`);
    found.push({ type: fourcc(b, at + 4), start: at, end: at + size, body });
    at += size;
  }
  return found;
}

/** The first box of `type` inside `box` (after `skip` bytes of its own fields); a box that runs past
 *  its parent's end is a damaged file. */
function child(b, box, type, skip = 0) {
  const inside = boxes(b, box.body + skip, box.end);
  if (inside.some((c) => c.end > box.end)) fail(`a box past the end of ${box.type}`);
  return inside.find((c) => c.type === type);
}

function path(b, box, ...types) {
  let at = box;
  for (const type of types) {
    at = at && child(b, at, type);
    if (!at) return null;
  }
  return at;
}

/** Where the file's `moov` is, as far as the first `length` bytes tell: {start, end} (end may be past
 *  `length`: wait for it), or null while the top-level boxes read so far do not include it (a moov
 *  at the file's end: the whole file is needed). A fragmented file (`moof`) throws. */
export function moovRange(b, length) {
  for (const box of boxes(b, 0, length)) {
    if (box.type === 'moov') return { start: box.start, end: box.end };
    if (box.type === 'moof') fail('already fragmented');
  }
  return null;
}

/** The track to rewrite, from a file whose moov is in `b`: its sample table, codec and trims. */
export function readTrack(b, moov) {
  const movie = { type: 'moov', start: moov.start, end: moov.end, body: moov.start + 8 };
  const mvhd = child(b, movie, 'mvhd') || fail('no mvhd');
  const movieScale = u32(b, mvhd.body + (b[mvhd.body] === 1 ? 20 : 12));
  if (child(b, movie, 'mvex')) fail('already fragmented');
  const trak = boxes(b, movie.body, movie.end).filter((t) => t.type === 'trak')
    .find((t) => { const h = path(b, t, 'mdia', 'hdlr'); return h && fourcc(b, h.body + 8) === 'soun'; })
    || fail('no audio track');
  const mdhd = path(b, trak, 'mdia', 'mdhd') || fail('no mdhd');
  const timescale = u32(b, mdhd.body + (b[mdhd.body] === 1 ? 20 : 12));
  const stbl = path(b, trak, 'mdia', 'minf', 'stbl') || fail('no sample table');
  const stsd = child(b, stbl, 'stsd') || fail('no sample description');
  if (u32(b, stsd.body + 4) !== 1) fail('several sample descriptions');
  const entry = boxes(b, stsd.body + 8, stsd.end)[0];
  if (!entry || entry.type !== 'mp4a') fail(`codec ${entry ? entry.type : 'none'}`);
  const codec = aacCodec(b, entry);
  const samples = sampleTable(b, stbl);
  const { priming, valid } = trims(b, movie, trak, movieScale, timescale, samples.total);
  return { timescale, codec, mime: `audio/mp4; codecs="${codec}"`, stsd: b.slice(stsd.start, stsd.end),
           ...samples, priming, valid };
}

/** The codec string of an `mp4a` entry (its esds' AudioSpecificConfig): AAC only. */
function aacCodec(b, entry) {
  const version = u32(b, entry.body + 8) >>> 16;
  const esds = child(b, entry, 'esds', 28 + (version === 1 ? 16 : version === 2 ? 36 : 0)) || fail('no esds');
  let at = esds.body + 4;
  const descriptor = () => {
    const tag = b[at++];
    let length = 0;
    for (let i = 0; i < 4; i++) { const c = b[at++]; length = (length << 7) | (c & 0x7f); if (!(c & 0x80)) break; }
    return { tag, length };
  };
  if (descriptor().tag !== 3) fail('no ES descriptor');
  const flags = b[at + 2];
  at += 3;
  if (flags & 0x80) at += 2;
  if (flags & 0x40) at += 1 + b[at];
  if (flags & 0x20) at += 2;
  if (descriptor().tag !== 4) fail('no decoder configuration');
  const objectType = b[at];
  if (objectType !== 0x40) fail(`object type 0x${objectType.toString(16)} (not AAC)`);
  at += 13;
  if (descriptor().tag !== 5) fail('no AudioSpecificConfig');
  let aot = b[at] >> 3;
  if (aot === 31) aot = 32 + (((b[at] & 7) << 3) | (b[at + 1] >> 5));
  if (aot !== 2 && aot !== 5 && aot !== 29) fail(`AAC object type ${aot}`);
  return `mp4a.40.${aot}`;
}

/** Each sample's file offset, size and duration (stsz, stco/co64, stsc, stts), and the whole length. */
function sampleTable(b, stbl) {
  const stsz = child(b, stbl, 'stsz') || fail('no stsz');
  const count = u32(b, stsz.body + 8), fixed = u32(b, stsz.body + 4);
  // Every count is checked against its box's size (and a sample holds a byte at least): a damaged
  // table is refused, never read past or looped over for billions of entries.
  if (count > b.length || (!fixed && stsz.body + 12 + 4 * count > stsz.end)) fail('stsz larger than its box');
  const size = new Uint32Array(count), duration = new Uint32Array(count), offset = new Float64Array(count);
  for (let i = 0; i < count; i++) size[i] = fixed || u32(b, stsz.body + 12 + 4 * i);
  const stts = child(b, stbl, 'stts') || fail('no stts');
  let i = 0;
  const entries = (box, at, width) => {
    const n = u32(b, box.body + at);
    if (box.body + at + 4 + n * width > box.end) fail(`${box.type} larger than its box`);
    return n;
  };
  for (let e = 0, n = entries(stts, 4, 8); e < n; e++) {
    const runs = u32(b, stts.body + 8 + 8 * e), delta = u32(b, stts.body + 12 + 8 * e);
    for (let k = 0; k < runs && i < count; k++) duration[i++] = delta;
  }
  if (i < count) fail('stts shorter than stsz');
  const stco = child(b, stbl, 'stco'), co64 = child(b, stbl, 'co64');
  const chunks = stco ? entries(stco, 4, 4) : co64 ? entries(co64, 4, 8) : fail('no chunk offsets');
  const chunkAt = (c) => (stco ? u32(b, stco.body + 8 + 4 * c) : u64(b, co64.body + 8 + 8 * c));
  const stsc = child(b, stbl, 'stsc') || fail('no stsc');
  const runs = entries(stsc, 4, 12);
  i = 0;
  for (let r = 0; r < runs; r++) {
    const first = u32(b, stsc.body + 8 + 12 * r) - 1, perChunk = u32(b, stsc.body + 12 + 12 * r);
    const last = Math.min(chunks, r + 1 < runs ? u32(b, stsc.body + 8 + 12 * (r + 1)) - 1 : chunks);
    for (let c = first; c < last && i < count; c++) {
      if (perChunk === 0) fail('an empty chunk run');
      let at = chunkAt(c);
      for (let k = 0; k < perChunk && i < count; k++) { offset[i] = at; at += size[i++]; }
    }
  }
  if (i < count) fail('chunks hold fewer samples than stsz');
  if (count && offset[count - 1] + size[count - 1] > 2 ** 32) fail('samples past any preview\'s size');
  let total = 0;
  for (const d of duration) total += d;
  return { count, size, duration, offset, total };
}

/** The priming and the real length, in the track's timescale: iTunSMPB (" 00000000 PRIMING PADDING
 *  LENGTH ...", hex) where iTunes wrote it, else the edit list's first media edit, else none. */
function trims(b, movie, trak, movieScale, timescale, total) {
  const meta = path(b, movie, 'udta', 'meta');   // a full box in iTunes files, a plain one in QuickTime's
  const list = meta && child(b, meta, 'ilst', fourcc(b, meta.body + 4) === 'hdlr' ? 0 : 4);
  for (const item of list ? boxes(b, list.body, list.end) : []) {
    if (item.type !== '----') continue;
    const parts = boxes(b, item.body, item.end);
    const name = parts.find((p) => p.type === 'name');
    const data = parts.find((p) => p.type === 'data');
    if (!name || !data || new TextDecoder().decode(b.subarray(name.body + 4, name.end)) !== 'iTunSMPB') continue;
    const words = new TextDecoder().decode(b.subarray(data.body + 8, data.end)).trim().split(/\s+/);
    const priming = parseInt(words[1], 16), length = parseInt(words[3], 16);
    if (priming >= 0 && length > 0 && priming + length <= total) return { priming, valid: length };
  }
  const elst = path(b, trak, 'edts', 'elst');
  if (elst) {
    const wide = b[elst.body] === 1;
    for (let e = 0, n = Math.min(u32(b, elst.body + 4), (elst.end - elst.body - 8) / (wide ? 20 : 12)); e < n; e++) {
      const at = elst.body + 8 + e * (wide ? 20 : 12);
      const length = wide ? u64(b, at) : u32(b, at);
      const start = wide ? u64(b, at + 8) : u32(b, at + 4);
      if (start === 0xffffffff || start >= 2 ** 63) continue;   // an empty edit (-1): a delay, not priming
      const valid = length && movieScale ? Math.round(length * timescale / movieScale) : total - start;
      return { priming: Math.min(start, total), valid: Math.max(0, Math.min(total - start, valid)) };
    }
  }
  return { priming: 0, valid: total };
}

/** How many samples, from `from`, lie whole within the first `length` bytes of the file. */
export function samplesWithin(track, from, length) {
  let i = from;
  while (i < track.count && track.offset[i] + track.size[i] <= length) i++;
  return i - from;
}

/** The init segment: ftyp and a moov with the track's sample description and no samples (mvex). */
export function initSegment(track) {
  const matrix = words(0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000);
  const zeros = (n) => new Uint8Array(n);
  return concat(
    box('ftyp', ascii('iso6'), words(0), ascii('iso6mp41')),
    box('moov',
      full('mvhd', 0, 0, words(0, 0, track.timescale, 0, 0x10000), half(0x100, 0), zeros(8), matrix, zeros(24), words(2)),
      box('trak',
        full('tkhd', 0, 3, words(0, 0, 1, 0, 0), zeros(8), half(0, 0, 0x100, 0), matrix, words(0, 0)),
        box('mdia',
          full('mdhd', 0, 0, words(0, 0, track.timescale, 0), half(0x55c4, 0)),
          full('hdlr', 0, 0, words(0), ascii('soun'), zeros(12), ascii('SoundHandler\0')),
          box('minf',
            full('smhd', 0, 0, words(0)),
            box('dinf', full('dref', 0, 0, words(1), full('url ', 0, 1))),
            box('stbl', track.stsd, full('stts', 0, 0, words(0)), full('stsc', 0, 0, words(0)),
              full('stsz', 0, 0, words(0, 0)), full('stco', 0, 0, words(0)))))),
      box('mvex', full('trex', 0, 0, words(1, 1, 0, 0, 0)))));
}

/** The init segment of AAC-LC, 44.1 kHz stereo (what an iTunes preview is), with no preview behind
 *  it: appended when the player starts, so the engine sets its decoder and output up before the first
 *  tap, which then costs a fetch and an append of the same configuration. */
export function warmInit() {
  const esds = full('esds', 0, 0, Uint8Array.of(
    3, 25, 0, 0, 0,                                    // ES_Descriptor: id 0, no flags
    4, 17, 0x40, 0x15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,   // DecoderConfig: AAC, audio stream
    5, 2, 0x12, 0x10,                                  // AudioSpecificConfig: AAC-LC, 44.1 kHz, 2 channels
    6, 1, 2));                                         // SLConfig
  const mp4a = box('mp4a', new Uint8Array(6), half(1), new Uint8Array(8), half(2, 16, 0, 0), words(44100 * 65536), esds);
  return initSegment({ timescale: 44100, stsd: full('stsd', 0, 0, words(1), mp4a) });
}

/** A media segment (moof + mdat) of samples [from, from + n), the bytes read from `b` (the file). */
export function mediaSegment(track, b, from, n, sequence) {
  let decodeTime = 0;
  for (let i = 0; i < from; i++) decodeTime += track.duration[i];
  const table = new Uint32Array(2 * n);
  let bytes = 0;
  for (let i = 0; i < n; i++) { table[2 * i] = track.duration[from + i]; table[2 * i + 1] = track.size[from + i]; bytes += track.size[from + i]; }
  const trun = (offset) => full('trun', 0, 0x301, words(n, offset), words(...table));
  const traf = (offset) => box('traf', full('tfhd', 0, 0x20000, words(1)),
    full('tfdt', 1, 0, words(Math.floor(decodeTime / 2 ** 32), decodeTime >>> 0)), trun(offset));
  const size = box('moof', full('mfhd', 0, 0, words(sequence)), traf(0)).length;
  const moof = box('moof', full('mfhd', 0, 0, words(sequence)), traf(size + 8));
  const mdat = new Uint8Array(8 + bytes);
  new DataView(mdat.buffer).setUint32(0, mdat.length);
  mdat.set(ascii('mdat'), 4);
  for (let i = 0, at = 8; i < n; i++) {
    const o = track.offset[from + i], s = track.size[from + i];
    mdat.set(b.subarray(o, o + s), at);
    at += s;
  }
  return concat(moof, mdat);
}

function words(...values) {
  const out = new Uint8Array(4 * values.length), view = new DataView(out.buffer);
  values.forEach((v, i) => view.setUint32(4 * i, v >>> 0));
  return out;
}

function half(...values) {
  const out = new Uint8Array(2 * values.length), view = new DataView(out.buffer);
  values.forEach((v, i) => view.setUint16(2 * i, v));
  return out;
}

const ascii = (s) => Uint8Array.from(s, (c) => c.charCodeAt(0));

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

function box(type, ...parts) {
  const out = concat(new Uint8Array(8), ...parts);
  new DataView(out.buffer).setUint32(0, out.length);
  out.set(ascii(type), 4);
  return out;
}

const full = (type, version, flags, ...parts) => box(type, words(((version << 24) | flags) >>> 0), ...parts);
