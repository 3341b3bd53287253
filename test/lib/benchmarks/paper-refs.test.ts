import { describe, expect, it } from 'vitest';
import { PAPER_REFS, arxivUrl, paperRef } from '../../../src/lib/benchmarks/paper-refs.ts';
import { PAPER_INFO } from '../../../src/lib/benchmarks/papers.ts';
import { PAPERS } from '../../../src/lib/benchmarks/registry.ts';

describe('paper records', () => {
  it('has one for every paper, its arXiv id the one its citation prints', () => {
    expect(Object.keys(PAPER_REFS).sort()).toEqual([...PAPERS].sort());
    for (const paper of PAPERS) {
      const ref = paperRef(paper);
      expect(ref?.id).toBe(paper);
      const printed = /arXiv:(\d{4}\.\d{5})/.exec(PAPER_INFO[paper].citation)?.[1] ?? null;
      if (printed !== null) expect(ref?.arxiv).toBe(printed);
    }
  });

  it('links a paper to its arXiv page, and nothing without an id', () => {
    expect(arxivUrl('locomo-conv')).toBe('https://arxiv.org/abs/2609.03467');
    expect(arxivUrl('inmind')).toBe('https://arxiv.org/abs/2607.24368');
    expect(arxivUrl('memuse')).toBeNull();
    expect(arxivUrl('__proto__')).toBeNull();
    expect(paperRef('toString')).toBeNull();
  });
});
