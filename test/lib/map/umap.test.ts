import { describe, expect, it } from 'vitest';
import { umap2 } from '../../../src/lib/map/umap.ts';
import { seededRandom } from '../../../src/lib/analysis/seeded-random.ts';

/** Two tight clusters far apart in 8 dimensions. */
function clusters(n: number, dim = 8): Float32Array {
  const random = seededRandom(3);
  return Float32Array.from({ length: n * dim }, (_, i) => {
    const row = Math.floor(i / dim);
    return (row < n / 2 ? 0 : 5) + random() * 0.1;
  });
}

const PARAMS = { seed: 42, nNeighbors: 5, minDist: 0.1, nEpochs: 50 };

describe('umap2', () => {
  it('gives the same layout for the same seed, and reports every epoch', () => {
    const data = clusters(40);
    const epochs: number[] = [];
    const a = umap2(data, 40, 8, PARAMS, (p) => epochs.push(p.epoch));
    const b = umap2(data, 40, 8, PARAMS);
    expect(Array.from(b)).toEqual(Array.from(a));
    expect(a).toHaveLength(80);
    expect(epochs).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const c = umap2(data, 40, 8, { ...PARAMS, seed: 7 });
    expect(Array.from(c)).not.toEqual(Array.from(a));
  });

  it('keeps the two clusters apart', () => {
    const xy = umap2(clusters(40), 40, 8, PARAMS);
    const centre = (from: number, to: number) => {
      let x = 0;
      let y = 0;
      for (let i = from; i < to; i++) [x, y] = [x + xy[i * 2], y + xy[i * 2 + 1]];
      return [x / (to - from), y / (to - from)];
    };
    const spread = (from: number, to: number, [cx, cy]: number[]) => {
      let s = 0;
      for (let i = from; i < to; i++)
        s = Math.max(s, Math.hypot(xy[i * 2] - cx, xy[i * 2 + 1] - cy));
      return s;
    };
    const a = centre(0, 20);
    const b = centre(20, 40);
    expect(Math.hypot(a[0] - b[0], a[1] - b[1])).toBeGreaterThan(
      Math.max(spread(0, 20, a), spread(20, 40, b)),
    );
  });

  it('lays fewer than three rows on a line and names a bad shape', () => {
    expect(Array.from(umap2(new Float32Array(4), 2, 2))).toEqual([0, 0, 1, 0]);
    expect(() => umap2(new Float32Array(5), 2, 2)).toThrow(/5 values are not 2 rows × 2/);
  });
});
