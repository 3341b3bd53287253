// "Verify here": the view drawn from the site's pack, with a seeded random sample of the pack's
// texts re-embedded in this browser and compared with the pack's vectors. A few seconds where a
// full recompute of LoCoMo-Conv takes minutes; the same seed picks the same texts everywhere.
import { sha256Hex } from '../common/sha256.ts';
import type { Embedder, EmbedOptions } from '../embed/embedder.ts';
import { maxDeviation, type SitePackVectors } from '../vectors/site-packs.ts';

/** About this many of a pack's texts are re-embedded. */
export const VERIFY_SAMPLE = 64;
/** The seed the sample is drawn with: a text is in it by the hash of seed and text. */
export const VERIFY_SEED = 'memlens-verify-1';

export interface VerifyCheck {
  max: number;
  /** Texts re-embedded here and compared. */
  compared: number;
}

/** Whether `text` is in the seeded sample that keeps `fraction` of all texts. */
export async function inSample(text: string, fraction: number, seed = VERIFY_SEED) {
  if (fraction >= 1) return true;
  const h = await sha256Hex(`${seed}\n${text}`);
  return parseInt(h.slice(0, 8), 16) / 2 ** 32 < fraction;
}

/**
 * The pack's embedder that also re-embeds the sampled texts of each call with `here` (this
 * browser's model), adding their deviation to `check`. Results are the pack's rows, so the chart
 * is the pack's; a text the pack lacks throws as the pack's embedder does.
 */
export function verifyingEmbedder(
  pack: SitePackVectors,
  here: Embedder,
  check: VerifyCheck,
  fraction = Math.min(1, VERIFY_SAMPLE / Math.max(1, pack.entry.rows)),
): Embedder {
  const { spec } = here;
  const fromPack = pack.embedder(spec);
  return {
    spec,
    backend: here.backend,
    async embed(texts: readonly string[], opts: EmbedOptions) {
      const matrix = await fromPack.embed(texts, { kind: opts.kind });
      const picked = await Promise.all(texts.map((t) => inSample(t, fraction)));
      const sample = texts.filter((_, i) => picked[i]);
      if (sample.length > 0) {
        const mine = await here.embed(sample, opts);
        const rows = sample.map((_, i) => mine.vectors.slice(i * mine.dim, (i + 1) * mine.dim));
        const d = maxDeviation(rows, await pack.lookup(spec, opts.kind, sample));
        check.max = Math.max(check.max, d.max);
        check.compared += d.compared;
      }
      return matrix;
    },
    dispose: async () => undefined,
  };
}
