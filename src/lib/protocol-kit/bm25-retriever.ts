import { Bm25Index } from '../analysis/bm25.ts';
import { asciiWordTokens, type Tokenizer } from '../analysis/tokenize.ts';
import { SharedBaseBm25 } from './bm25-shared.ts';
import type { CorpusScorer, Retriever } from './retriever.ts';
import type { Corpus } from './types.ts';

export const BM25_NOTE =
  'BM25Okapi as rank_bm25 0.2.2 (k1 1.5, b 0.75, epsilon 0.25); tokens: lowercase, then ASCII [a-z0-9]+ runs';

export const BM25_ID = 'bm25';

/** rank_bm25's BM25Okapi, one index per corpus; shared corpus prefixes are indexed once. */
export function bm25Retriever(tokenizer: Tokenizer = asciiWordTokens): Retriever {
  const tokens = new Map<string, string[]>();
  let bases = new Map<string, SharedBaseBm25>();
  const tokenize = (text: string): string[] => {
    let t = tokens.get(text);
    if (t === undefined) {
      t = tokenizer(text);
      tokens.set(text, t);
    }
    return t;
  };
  const baseFor = (corpus: Corpus, size: number, id: string): SharedBaseBm25 => {
    let base = bases.get(id);
    if (base === undefined) {
      base = new SharedBaseBm25(corpus.docs.slice(0, size).map(tokenize));
      bases.set(id, base);
    }
    if (base.baseSize !== size)
      throw new Error(`shared base "${id}" has ${base.baseSize} docs, not ${size}`);
    return base;
  };
  return {
    id: BM25_ID,
    label: 'BM25',
    async prepare() {
      bases = new Map();
    },
    forCorpus(corpus: Corpus): CorpusScorer {
      if (corpus.shared) {
        const { id, size } = corpus.shared;
        const scorer = baseFor(corpus, size, id).extend(corpus.docs.slice(size).map(tokenize));
        return (query) => scorer(tokenize(query));
      }
      const index = new Bm25Index(corpus.docs.map(tokenize));
      return (query) => index.scores(tokenize(query));
    },
  };
}
