export { asciiWordTokens, type Tokenizer } from './tokenize.ts';
export {
  TopKSelector,
  compareRanked,
  ranksBefore,
  topKOfScores,
  type ScoredIndex,
} from './topk.ts';
export { BM25_OKAPI_DEFAULTS, Bm25Index, type Bm25Params } from './bm25.ts';
export {
  cosineScoresAll,
  cosineSimilarity,
  dot,
  l2Normalize,
  normalizeRowsInPlace,
  rowCount,
  topKByCosine,
} from './cosine.ts';
export { mean, median, quantileSorted, sampleStd, sortedAscending } from './stats.ts';
export {
  histogram,
  kdeDensity,
  silvermanBandwidth,
  type Histogram,
  type HistogramOptions,
} from './histogram.ts';
export {
  ksStatistic,
  rocAuc,
  separationStats,
  type GroupSummary,
  type SeparationStats,
} from './separation.ts';
export {
  goldRanks,
  hitAtK,
  meanRecall,
  meanRecallCurve,
  recallAtK,
  recallCurve,
  type MeanResult,
  type RecallResult,
} from './recall.ts';
