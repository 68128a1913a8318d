// Even loudness in the page ("Play here"): previewd decides each track's gain (EBU R128, to its
// target: `status.loudness.gain.db`), and the page applies it through the media element's `volume`,
// which can only attenuate. So the page plays every track HEADROOM_DB below previewd's target: a
// track previewd raises by up to that much is raised here too (attenuated less), one it lowers is
// attenuated more, and only one previewd raises by more stays short by the rest. The listener's
// volume scales the result the same for every track, so the slider acts at every position and never
// changes the balance between tracks. No Web Audio (a locked iPhone suspends it, silencing the
// element); an iPhone ignores `volume` altogether (an iPad does not), so there each preview plays as
// published.

/** dB every track plays below previewd's target in the page: the largest boost the page can honour.
 *  Previews of current releases mostly measure −6 to −12 LUFS (previewd lowers them to −16); 6 dB
 *  raises quieter ones down to −22 LUFS, for a page 6 dB quieter at full volume than the box. */
export const HEADROOM_DB = 6;

/** The dB the page applies to a track previewd plays at `gainDb` while normalising: the gain less
 *  the headroom, a boost beyond the headroom cut to it. A gain not decided yet counts as 0 dB. */
export function pageGainDb(gainDb) {
  return Math.min(Number.isFinite(gainDb) ? gainDb : 0, HEADROOM_DB) - HEADROOM_DB;
}

/** The amplitude previewd's volume (0–100) stands for: PulseAudio's cubic scale, as the box's own
 *  outputs apply it (50 ≈ −18 dB), so the slider sounds the same step here as on the speakers. */
export function volumeAmplitude(volume) {
  const level = Number.isFinite(volume) ? Math.max(0, Math.min(100, volume)) / 100 : 1;
  return level * level * level;
}

/** The element's `volume` (0–1) for previewd's `loudness` report (its `gain` and `targetLUFS`; null
 *  when nothing is known) and volume (0–100). Normalisation off (no target): the volume alone, each
 *  preview as published. */
export function elementVolume(loudness, volume) {
  const amplitude = volumeAmplitude(volume);
  if (!loudness || !Number.isFinite(loudness.targetLUFS)) return amplitude;
  const gainDb = loudness.gain ? loudness.gain.db : null;
  return Math.max(0, Math.min(1, amplitude * Math.pow(10, pageGainDb(gainDb) / 20)));
}
