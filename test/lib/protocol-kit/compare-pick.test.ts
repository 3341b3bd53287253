import { describe, expect, it } from 'vitest';
import { compareRetrievers } from '../../../src/lib/protocol-kit/compare.ts';
import {
  compareCsvName,
  groupPairsOf,
  openedDisagreement,
  pairLists,
  pickOne,
  pickPair,
  readAlpha,
} from '../../../src/lib/protocol-kit/compare-pick.ts';
import { isWholeSeries } from '../../../src/lib/protocol-kit/summary.ts';
import { compared } from './compare-fixture.ts';

const best = compared('best', () => 1);
const poor = compared('poor', (q) => (q % 4 === 0 ? 1 : 6));

describe('the comparison view’s URL choices', () => {
  it('reads α from the offered levels, else 0.05', () => {
    expect(readAlpha('0.01')).toBe(0.01);
    expect(readAlpha('0.2')).toBe(0.05);
    expect(readAlpha(undefined)).toBe(0.05);
  });

  it('keeps an asked value that is listed, else the first', () => {
    expect(pickOne(['naive', 'indirect'], 'indirect')).toBe('indirect');
    expect(pickOne(['naive', 'indirect'], 'other')).toBe('naive');
    expect(pickOne([], 'x')).toBe('');
  });

  it('picks A and B as asked, never the same ref twice', () => {
    const refs = ['bm25', 'minilm', 'bge'];
    expect(pickPair(refs, 'bge', 'bm25')).toEqual({ a: 'bge', b: 'bm25' });
    expect(pickPair(refs, undefined, undefined)).toEqual({ a: 'bm25', b: 'minilm' });
    expect(pickPair(refs, 'minilm', 'minilm')).toEqual({ a: 'minilm', b: 'bm25' });
    expect(pickPair(['bm25'], 'x', 'y')).toEqual({ a: 'bm25', b: '' });
  });

  it('names the CSV after benchmark and refs, with no character a file system refuses', () => {
    expect(compareCsvName('inmind', ['bm25', 'hub:o/n@abc:q8'])).toBe(
      'memlens-compare-inmind-bm25-hub_o_n_abc_q8.csv',
    );
  });
});

describe('the pair’s disagreements', () => {
  it('lists both directions and opens the asked query', () => {
    const lists = pairLists([best, poor], { a: 'best', b: 'poor' }, 'indirect', 1);
    expect(lists.onlyA).toHaveLength(15);
    expect(lists.onlyB).toEqual([]);
    const id = lists.onlyA[2].query.id;
    expect(openedDisagreement(lists, id)?.query.id).toBe(id);
    expect(openedDisagreement(lists, 'nope')).toBeNull();
  });

  it('is empty while a ref is not evaluated', () => {
    expect(pairLists([best], { a: 'best', b: 'poor' }, 'indirect', 1)).toEqual({
      onlyA: [],
      onlyB: [],
    });
  });

  it('keeps the per-group recall rows of one series at k', () => {
    const c = compareRetrievers([poor, best], { ks: [1, 5], tieK: 1, seed: 11 });
    const rows = groupPairsOf(c, 'naive', 1);
    expect(rows.length).toBeGreaterThan(0);
    expect(
      rows.every(
        (p) => p.series === 'naive' && p.k === 1 && p.metric === 'recall' && !isWholeSeries(p),
      ),
    ).toBe(true);
    expect(groupPairsOf(null, 'naive', 1)).toEqual([]);
  });
});
