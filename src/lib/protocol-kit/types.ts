/** One retrieval pool: what a retriever scores for the queries that point at it. */
export interface Corpus {
  id: string;
  /** Texts exactly as handed to the retriever. */
  docs: readonly string[];
  /** One id per doc; gold ids refer to these unless `credits` says otherwise. */
  docIds: readonly string[];
  /** Whether retrieving doc `docIndex` credits gold id `goldId`; default: the doc's own id. */
  credits?: (docIndex: number, goldId: string) => boolean;
  /**
   * The first `size` docs are the same in every corpus of this protocol naming the same `id`
   * (e.g. InMind's 486 background turns), so retrievers may reuse their work.
   */
  shared?: { id: string; size: number };
}

export interface ProtocolQuery {
  id: string;
  /** One recall curve and one similarity histogram per series (e.g. naive vs indirect). */
  series: string;
  /** Breakdown within a series (domain, category, relation type); null: in no group. */
  group: string | null;
  text: string;
  corpusId: string;
  /** Distinct gold ids. Empty: not scorable, skipped and counted as such. */
  goldIds: readonly string[];
}

export interface Protocol {
  /** The protocol's id in the benchmark registry (which narrows it to `BenchmarkId`). */
  benchmark: string;
  /** The protocol's choices in one line each, shown beside the results. */
  notes: readonly string[];
  corpora: ReadonlyMap<string, Corpus>;
  queries: readonly ProtocolQuery[];
  /** The k of the headline number (the paper's). */
  defaultK: number;
  /**
   * Per series, one line on how the pool served here falls short of the paper's (e.g. "1 of the
   * paper's 10 conversations"); a series not listed is the paper's whole pool.
   */
  scope?: ReadonlyMap<string, string>;
}

export function corpusMap(corpora: readonly Corpus[]): Map<string, Corpus> {
  return new Map(corpora.map((c) => [c.id, c]));
}
