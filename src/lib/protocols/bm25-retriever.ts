import { Bm25Index } from '../analysis/bm25.ts';
import { asciiWordTokens, type Tokenizer } from '../analysis/tokenize.ts';
import type { CorpusScorer, Retriever } from './retriever.ts';
import type { Corpus } from './types.ts';

export const BM25_TOKENIZER_NOTE =
  'BM25Okapi as rank_bm25 0.2.2 (k1 1.5, b 0.75, epsilon 0.25); tokens: lowercase, then ASCII [a-z0-9]+ runs';

/** rank_bm25's BM25Okapi, one index per corpus; tokens are cached across corpora. */
export function bm25Retriever(tokenizer: Tokenizer = asciiWordTokens): Retriever {
  const tokens = new Map<string, string[]>();
  const tokenize = (text: string): string[] => {
    let t = tokens.get(text);
    if (t === undefined) {
      t = tokenizer(text);
      tokens.set(text, t);
    }
    return t;
  };
  return {
    id: 'bm25',
    label: 'BM25',
    prepare: async () => undefined,
    forCorpus(corpus: Corpus): CorpusScorer {
      const index = new Bm25Index(corpus.docs.map(tokenize));
      return (query) => index.scores(tokenize(query));
    },
  };
}
