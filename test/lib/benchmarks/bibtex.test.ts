import { describe, expect, it } from 'vitest';
import { memlensBibtex, paperBibtex } from '../../../src/lib/benchmarks/bibtex.ts';
import { PAPER_REFS } from '../../../src/lib/benchmarks/paper-refs.ts';

describe('BibTeX', () => {
  it('gives a paper what its text gives: authors, year, arXiv id', () => {
    expect(paperBibtex(PAPER_REFS['locomo-conv'])).toBe(
      [
        '@misc{chang2026locomoconv,',
        "  title = {When Users Don't Ask: Benchmarking Context-Driven Memory Retrieval in Conversational Agents},",
        '  author = {Chang, Wen-Yu and Chen, Yun-Nung},',
        '  year = {2026},',
        '  eprint = {2609.03467},',
        '  archivePrefix = {arXiv},',
        '  url = {https://arxiv.org/abs/2609.03467}',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('leaves out what the text does not give, and keeps a title’s capitals', () => {
    const inmind = paperBibtex(PAPER_REFS.inmind);
    expect(inmind).toMatch(/^@misc\{inmind2026,\n {2}title = \{Keep It \{InMind\}:/);
    expect(inmind).not.toContain('author');
    expect(paperBibtex(PAPER_REFS.memuse)).not.toContain('eprint');
  });

  it('escapes LaTeX specials and drops braces', () => {
    const odd = { ...PAPER_REFS.memuse, title: 'A & B {x} 50% #1 a_b', authors: ['O_Neil, A'] };
    const bib = paperBibtex(odd);
    expect(bib).toContain('title = {A \\& B x 50\\% \\#1 a\\_b}');
    expect(bib).toContain('author = {O\\_Neil, A}');
  });

  it('cites MemLens with the view’s URL and the day', () => {
    const bib = memlensBibtex(
      'https://example.org/#/reproduce?bench=inmind',
      new Date('2026-12-07T12:00:00Z'),
    );
    expect(bib).toContain('@software{memlens,');
    expect(bib).toContain('  url = {https://example.org/#/reproduce?bench=inmind},');
    expect(bib).toContain('as shown at this URL on 2026-12-07}');
  });
});
