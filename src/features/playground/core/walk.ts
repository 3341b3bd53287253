// The guided walk through the implicit-association blind spot, for class use. Each step sets
// the view (case, query, retriever); its words about ranks are computed from the rank table
// the page shows beside them, never written in advance.
import { plural } from '../../../lib/common/plural.ts';
import { BM25_ID } from '../../../lib/protocol-kit/bm25-retriever.ts';
import { CUSTOM_CASE } from './state.ts';

/** One column of the rank table, for the case's first memory; rank null while computing. */
export interface WalkRank {
  label: string;
  rank: number | null;
}

/** What the page's rank table says about the first memory. */
export interface WalkTable {
  corpusSize: number;
  backgroundSize: number;
  ranks: readonly WalkRank[];
}

export interface WalkStep {
  title: string;
  text: (table: WalkTable) => string;
  params: Record<string, string | null>;
}

/** "Near the top": within this many of the ranked texts. */
export const TOP = 5;

const reset = { mem: null, q: null } as const;

function rankList(ranks: readonly WalkRank[]): string {
  return ranks.map((r) => `${r.label} #${r.rank ?? '?'}`).join(', ');
}

function names(ranks: readonly WalkRank[]): string {
  const labels = ranks.map((r) => r.label);
  return labels.length < 2
    ? labels.join('')
    : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
}

/** Where the memory stands in the table, as one clause true of every column it names. */
export function standing(table: WalkTable): string {
  const done = table.ranks.filter((r) => r.rank !== null);
  const waiting = table.ranks.length - done.length;
  const still = waiting > 0 ? `; ${plural(waiting, 'retriever')} still computing` : '';
  if (done.length === 0) return 'the ranks are still being computed';
  const top = `the top ${TOP} of ${plural(table.corpusSize, 'text')}`;
  const near = done.filter((r) => (r.rank ?? Infinity) <= TOP);
  const far = done.filter((r) => (r.rank ?? Infinity) > TOP);
  const verb = (rs: readonly WalkRank[], one: string, many: string) =>
    rs.length === 1 ? one : many;
  if (far.length === 0) {
    const who = done.length === 1 ? done[0].label : `every retriever shown (${names(done)})`;
    return `${who} puts the memory in ${top} (${rankList(done)})${still}`;
  }
  if (near.length === 0) {
    const who =
      done.length === 1
        ? `${done[0].label} does not put`
        : `no retriever shown (${names(done)}) puts`;
    return `${who} the memory in ${top} (${rankList(done)})${still}`;
  }
  return `${names(near)} ${verb(near, 'puts', 'put')} the memory in ${top} (${rankList(near)}), but ${names(far)} ${verb(far, 'does', 'do')} not (${rankList(far)})${still}`;
}

function denseStep(denseModel: string | null): WalkStep {
  if (denseModel === null) {
    return {
      title: 'Does an embedding model bridge the gap?',
      text: (t) =>
        `Dense retrievers compare meaning rather than words, but this site serves no real embedding model (MiniLM or BGE), so this step can show BM25 only: ${standing(t)}.`,
      params: { ...reset, case: null, qv: 'indirect', r: BM25_ID },
    };
  }
  return {
    title: 'Does an embedding model bridge the gap?',
    text: (t) =>
      `Dense retrievers compare meaning rather than words. The link from macarons to tree nuts is world knowledge, though, not similarity. In the table, ${standing(t)}.`,
    params: { ...reset, case: null, qv: 'indirect', r: denseModel },
  };
}

export function walkSteps(denseModel: string | null): WalkStep[] {
  return [
    {
      title: 'A fact, asked for directly',
      text: (t) =>
        `A user mentioned a tree-nut allergy in an earlier session, among ${plural(t.backgroundSize, 'unrelated turn')}. Asked "What food allergy did I tell you about?", question and memory share their words. In the table, ${standing(t)}.`,
      params: { ...reset, case: null, qv: 'naive', r: BM25_ID },
    },
    {
      title: 'The same fact, needed but never named',
      text: (t) =>
        `Now the user asks for macaron recipes. Macarons are made with almond flour, so the allergy matters, but the question shares no content word with the memory. In the table, ${standing(t)}.`,
      params: { ...reset, case: null, qv: 'indirect', r: BM25_ID },
    },
    denseStep(denseModel),
    {
      title: 'Contrast: a direct question',
      text: (t) =>
        `LoCoMo asks about what was said ("When did Caroline go to the LGBTQ support group?"). Question and evidence share their words. In the table, ${standing(t)}.`,
      params: { ...reset, case: 'locomo-direct', qv: null, r: BM25_ID },
    },
    {
      title: 'Your turn',
      text: () =>
        'Write a memory and a later request that depends on it without naming it (a pending visa and a trip abroad, a pet and a houseplant). Can you find a pair that every retriever misses?',
      params: { ...reset, case: CUSTOM_CASE, qv: null, r: BM25_ID },
    },
  ];
}

/** What a step sets that its words are about: the case, its query and the retriever in focus. */
const STEP_VIEW = ['case', 'qv', 'r'] as const;

/**
 * The URL changes that show step `n` as Next would have, for a link that opens the walk on a
 * step (`#/playground?step=4`): its text speaks of its case, so a page showing another case
 * would speak of the wrong table. Null when the URL already shows the step's view; typed texts
 * over the step's own case are kept.
 */
export function stepArrival(
  steps: readonly WalkStep[],
  n: number,
  params: Readonly<Record<string, string>>,
): Record<string, string | null> | null {
  const step = steps[n - 1];
  if (!step) return null;
  const same = STEP_VIEW.every((key) => (step.params[key] ?? null) === (params[key] ?? null));
  return same ? null : { ...step.params, step: String(n) };
}
