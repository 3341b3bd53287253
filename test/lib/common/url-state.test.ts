import { describe, expect, it } from 'vitest';
import { formatHash, parseHash, withParams } from '../../../src/lib/common/url-state.ts';

describe('view state in the hash', () => {
  it('parses page and params, defaulting the page', () => {
    expect(parseHash('#/inmind?q=allergy&sort=score')).toEqual({
      page: 'inmind',
      params: { q: 'allergy', sort: 'score' },
    });
    expect(parseHash('')).toEqual({ page: 'home', params: {} });
    expect(parseHash('#/?x=1', 'overview')).toEqual({ page: 'overview', params: { x: '1' } });
  });

  it('formats with sorted params, empty ones left out, and round-trips encoded text', () => {
    const hash = formatHash({ page: 'inmind', params: { sort: 'score', q: 'a&b =c', empty: '' } });
    expect(hash).toBe('#/inmind?q=a%26b+%3Dc&sort=score');
    expect(parseHash(hash)).toEqual({ page: 'inmind', params: { q: 'a&b =c', sort: 'score' } });
    expect(formatHash({ page: 'home', params: {} })).toBe('#/home');
  });

  it('sets and clears params without touching the original', () => {
    const state = { page: 'embeddings', params: { model: 'minilm', device: 'wasm' } };
    const next = withParams(state, { model: null, dtype: 'q8', device: '' });
    expect(next).toEqual({ page: 'embeddings', params: { dtype: 'q8' } });
    expect(state.params).toEqual({ model: 'minilm', device: 'wasm' });
  });
});
