import { BM25_ID } from './bm25-retriever.ts';

export function scoreTitle(retrieverId: string): string {
  return retrieverId === BM25_ID ? 'BM25 score' : 'cosine(query, memory)';
}
