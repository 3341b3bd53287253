import { describe, expect, it } from 'vitest';
import {
  MAP_TEXT_MAX,
  cleanMapText,
  findMemories,
  foundSummary,
  nearestMemories,
  pcaAxesFromCoords,
  placeQuery,
  searchTerms,
} from '../../../src/lib/map/map-search.ts';
import { pca2 } from '../../../src/lib/map/pca.ts';
import { seededRandom } from '../../../src/lib/analysis/seeded-random.ts';
import { layout } from './map-fixture.ts';

/** n unit rows of dim values, seeded. */
function unitRows(n: number, dim: number, seed = 7): Float32Array {
  const random = seededRandom(seed);
  const out = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) {
    let norm = 0;
    for (let j = 0; j < dim; j++) {
      // A stretched first axis, so the two principal axes are well apart.
      const v = (random() - 0.5) * (j === 0 ? 4 : j === 1 ? 2 : 1);
      out[i * dim + j] = v;
      norm += v * v;
    }
    for (let j = 0; j < dim; j++) out[i * dim + j] /= Math.sqrt(norm);
  }
  return out;
}

describe('searching the map’s memories by text', () => {
  it('cleans what the URL or a text box gives: control characters, spaces, length', () => {
    expect(cleanMapText(undefined)).toBe('');
    expect(cleanMapText(' a\tb\u0007\nc ')).toBe('a b c');
    expect(cleanMapText('y'.repeat(MAP_TEXT_MAX + 50))).toHaveLength(MAP_TEXT_MAX);
    expect(searchTerms('Dish  dish 1')).toEqual(['dish', '1']);
  });

  it('finds the memories holding every word, case-insensitive, and never a query', () => {
    const texts = (at: number[]) => at.map((i) => layout.points[i].text);
    expect(texts(findMemories(layout, 'DISH'))).toEqual([
      'I love dish 1\nNoted.',
      'I love dish 2\nNoted.',
    ]);
    expect(texts(findMemories(layout, 'dish 2'))).toEqual(['I love dish 2\nNoted.']);
    expect(findMemories(layout, 'ccc')).toHaveLength(1);
    expect(findMemories(layout, 'naive')).toEqual([]);
    expect(findMemories(layout, '   ')).toEqual([]);
    for (const at of findMemories(layout, 'c')) expect(at).toBeLessThan(layout.memoryCount);
  });

  it('says what a search found: nothing, or how many of the memories', () => {
    expect(foundSummary(null, 1200, '')).toBe('');
    expect(foundSummary([], 1200, 'pizza')).toBe('No memory matches "pizza".');
    expect(foundSummary([3], 1200, 'pizza')).toBe('1 memory of 1,200 match "pizza".');
    expect(foundSummary([3, 4], 1200, 'dish')).toBe('2 memories of 1,200 match "dish".');
  });
});

describe('a typed query on the map', () => {
  const n = 40;
  const dim = 6;
  const vectors = unitRows(n, dim);
  const points = Array.from({ length: n }, (_, i) => ({ key: `m:${i}` }));
  const map = { vectors, dim, memoryCount: 30, points };

  it('lists its nearest memories by cosine, best first, queries left out', () => {
    const query = vectors.slice(3 * dim, 4 * dim);
    const near = nearestMemories(map, query, 5);
    expect(near).toHaveLength(5);
    expect(near[0]).toEqual({ at: 3, score: expect.closeTo(1, 5) });
    for (let i = 1; i < near.length; i++)
      expect(near[i].score).toBeLessThanOrEqual(near[i - 1].score);
    expect(near.every((x) => x.at < 30)).toBe(true);
    expect(() => nearestMemories(map, new Float32Array(3))).toThrow(/3 dimensions, the map 6/);
  });

  it('recovers the PCA’s own axes from its coordinates', () => {
    const fitted = pca2(vectors, n, dim);
    const { axes } = pcaAxesFromCoords(vectors, n, dim, fitted.coords);
    for (const k of [0, 1]) {
      for (let j = 0; j < dim; j++) expect(axes[k][j]).toBeCloseTo(fitted.axes[k][j], 4);
    }
  });

  it('places a memory’s own vector where PCA drew that memory', () => {
    const { coords } = pca2(vectors, n, dim);
    const query = vectors.slice(7 * dim, 8 * dim);
    const at = placeQuery(map, coords, 'pca', query, []);
    expect(at.x).toBeCloseTo(coords[14], 4);
    expect(at.y).toBeCloseTo(coords[15], 4);
    expect(at.how).toMatch(/PCA/);
  });

  it('puts it, under UMAP, at the cosine-weighted mean of its nearest memories, and says so', () => {
    const coords = Float32Array.from(points.flatMap((_, i) => [i, 2 * i]));
    const at = placeQuery(map, coords, 'umap', new Float32Array(dim), [
      { at: 1, score: 0.75 },
      { at: 5, score: 0.25 },
      { at: 9, score: -0.5 },
    ]);
    expect(at.x).toBeCloseTo(0.75 * 1 + 0.25 * 5);
    expect(at.y).toBeCloseTo(2 * (0.75 * 1 + 0.25 * 5));
    expect(at.how).toMatch(/mean of its 3 nearest memories’ positions, weighted by cosine/);
    const flat = placeQuery(map, coords, 'umap', new Float32Array(dim), [
      { at: 2, score: -0.1 },
      { at: 4, score: -0.2 },
    ]);
    expect(flat.x).toBeCloseTo(3);
    expect(() => placeQuery(map, coords, 'umap', new Float32Array(dim), [])).toThrow(/no memory/);
  });
});
