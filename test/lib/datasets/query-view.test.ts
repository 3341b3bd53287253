import { describe, expect, it } from 'vitest';
import { emptyGoldNote, groupGold, queryKey } from '../../../src/lib/datasets/query-view.ts';

describe('the gold evidence of the queries shown', () => {
  it('groups gold turns by query, in the order they came', () => {
    const turn = (query_id: string, dia_id: string) => ({
      dataset: 'locomo',
      query_id,
      dia_id,
      speaker: 'Caroline',
      text: `turn ${dia_id}`,
      session: 1,
    });
    const gold = groupGold([turn('q1', 'D1:3'), turn('q2', 'D2:1'), turn('q1', 'D1:1')]);
    expect(gold.get(queryKey({ dataset: 'locomo', query_id: 'q1' }))?.map((g) => g.dia_id)).toEqual(
      ['D1:3', 'D1:1'],
    );
    expect(gold.get(queryKey({ dataset: 'locomo', query_id: 'q3' }))).toBeUndefined();
  });

  it('says a query has none only once the lookup has answered', () => {
    expect(emptyGoldNote({ loading: true, stale: false })).toBe('Looking up the gold evidence…');
    expect(emptyGoldNote({ loading: false, stale: true })).toBe('Looking up the gold evidence…');
    expect(emptyGoldNote({ loading: false, stale: false })).toBe('No gold evidence listed.');
  });
});
