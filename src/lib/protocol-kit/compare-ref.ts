// The comparison's names for the one retriever grammar (retriever-ref.ts), kept for its callers.
export {
  formatRetrieverRef as formatCompareRef,
  parseRetrieverRef as parseCompareRef,
  type RetrieverRef as CompareRef,
} from './retriever-ref.ts';
