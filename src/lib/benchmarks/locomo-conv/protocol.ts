import type { QueryRow, QueryStyle, TurnRow } from '../../datasets/tables.ts';
import { locomoCategoryLabel } from '../../datasets/locomo-categories.ts';
import type { QueryRunner } from '../../query/query-client.ts';
import { loadQueries, loadTurns } from '../../protocol-kit/inputs.ts';
import {
  corpusMap,
  type Corpus,
  type Protocol,
  type ProtocolQuery,
} from '../../protocol-kit/types.ts';

export const LOCOMO_CONV_K = 10;
const ADVERSARIAL = 5;
/** Styles whose category-5 (adversarial) QAs the repo's scripts skip. */
const SKIPS_ADVERSARIAL: readonly QueryStyle[] = ['question', 'counterfactual'];

type DocTurn = Pick<TurnRow, 'dia_id' | 'speaker' | 'text' | 'date' | 'caption'>;

/** `DATE: <date>\n<speaker> said, "<text>"`, plus ` and shared <caption>.` for an image turn. */
export function turnDocument(turn: DocTurn): string {
  const date = turn.date === '' ? 'Unknown Date' : turn.date;
  const caption = turn.caption === null ? '' : ` and shared ${turn.caption}.`;
  return `DATE: ${date}\n${turn.speaker.trim()} said, "${turn.text.trim()}"${caption}`;
}

/** "D8" of "D8:6": the session prefix the scripts compare sessions by. */
export function sessionPrefix(diaId: string): string {
  return diaId.split(':')[0];
}

/** The id a session is known by: its first turn's prefix, else `D<session>`. */
function sessionIds(turns: readonly TurnRow[]): Map<number, string> {
  const ids = new Map<number, string>();
  for (const t of turns) {
    if (!ids.has(t.session))
      ids.set(t.session, t.dia_id ? sessionPrefix(t.dia_id) : `D${t.session}`);
  }
  return ids;
}

function indexable(t: TurnRow): boolean {
  return t.dia_id !== '' && t.speaker !== '' && t.text.trim() !== '';
}

/** Lowercased, stripped text of every turn of the conversation, indexed or not. */
function containmentTexts(turns: readonly TurnRow[]): Map<string, string> {
  return new Map(turns.map((t) => [t.dia_id, t.text.trim().toLowerCase()]));
}

/**
 * One conversation's index: only sessions some QA's evidence points into, one document per
 * turn. A gold turn is credited by any retrieved document that contains its text.
 */
export function conversationCorpus(
  id: string,
  turns: readonly TurnRow[],
  evidence: readonly (readonly string[])[],
): Corpus {
  const referenced = new Set(evidence.flat().map(sessionPrefix));
  const sessionId = sessionIds(turns);
  const kept = turns.filter((t) => referenced.has(sessionId.get(t.session) ?? '') && indexable(t));
  const docs = kept.map(turnDocument);
  const lowerDocs = docs.map((d) => d.toLowerCase());
  const textOf = containmentTexts(turns);
  return {
    id,
    docs,
    docIds: kept.map((t) => t.dia_id),
    credits: (docIndex, goldId) => {
      const text = textOf.get(goldId);
      return text !== undefined && lowerDocs[docIndex].includes(text);
    },
  };
}

export function keepsQuery(q: Pick<QueryRow, 'style' | 'category'>): boolean {
  return !(q.category === ADVERSARIAL && SKIPS_ADVERSARIAL.includes(q.style));
}

export interface LocomoConvSource {
  /** Prefix of the corpus ids, e.g. the file the conversations came from. */
  name: string;
  turns: readonly TurnRow[];
  /** Every QA of the file (all categories): their evidence picks the indexed sessions. */
  evidence: readonly QueryRow[];
  /** The queries to run against this file's conversations. */
  queries: readonly QueryRow[];
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

function sourceCorpora(source: LocomoConvSource): Corpus[] {
  const evidence = groupBy(source.evidence, (q) => q.conv_id);
  return [...groupBy(source.turns, (t) => t.conv_id)].map(([convId, turns]) =>
    conversationCorpus(
      `${source.name}:${convId}`,
      turns,
      (evidence.get(convId) ?? []).map((q) => q.gold_ids),
    ),
  );
}

/** Composed queries have no category: grouped by gold size, capped at 5 as the repo does. */
function groupOf(q: QueryRow): string {
  if (q.category !== null) return locomoCategoryLabel(q.category);
  const n = new Set(q.gold_ids).size;
  return n >= 5 ? '5+ gold turns' : `${n} gold turns`;
}

function toQuery(q: QueryRow, sourceName: string): ProtocolQuery {
  return {
    id: q.query_id,
    series: q.style,
    group: groupOf(q),
    text: q.text,
    corpusId: `${sourceName}:${q.conv_id}`,
    goldIds: [...new Set(q.gold_ids)],
  };
}

/** LoCoMo-Conv recall@k (PROTOCOL.md): one index per conversation, containment matching. */
export function locomoConvProtocol(sources: readonly LocomoConvSource[]): Protocol {
  const corpora = sources.flatMap(sourceCorpora);
  const queries = sources.flatMap((s) =>
    s.queries.filter(keepsQuery).map((q) => toQuery(q, s.name)),
  );
  return {
    benchmark: 'locomo-conv',
    notes: [
      'one index per conversation; only sessions referenced by some QA evidence',
      'document: DATE: <session date>\\n<speaker> said, "<text>" (+ " and shared <caption>.")',
      'a gold turn counts when its lowercased text is contained in a retrieved document',
      'category-5 QAs skipped for question and counterfactual; empty gold skipped',
      `files: ${sources.map((s) => s.name).join(', ')}`,
    ],
    corpora: corpusMap(corpora),
    queries,
    defaultK: LOCOMO_CONV_K,
  };
}

/** The paper's pools for LoCoMo-Conv's Table 4 (README: 10 conversations; 1,069 composed clusters). */
export const LOCOMO_CONV_PAPER_CONVERSATIONS = 10;
export const LOCOMO_CONV_PAPER_CLUSTERS = 1069;
const SMALL_COMPOSED_FILE_CLUSTERS = 300;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What of LoCoMo-Conv's paper pools the site serves, per series; empty when all of it. */
export function locomoConvScope(
  dialogConversations: readonly string[],
  composedClusters: number,
): Map<string, string> {
  const scope = new Map<string, string>();
  const n = dialogConversations.length;
  if (n < LOCOMO_CONV_PAPER_CONVERSATIONS) {
    const which =
      n === 0
        ? 'no dialog file'
        : `${plural(n, 'conversation')} (${dialogConversations.join(', ')})`;
    const line = `${which} of the paper's ${LOCOMO_CONV_PAPER_CONVERSATIONS}: only the locomo10_dialog excerpt is served`;
    for (const series of ['dialog', 'implicit', 'counterfactual']) scope.set(series, line);
  }
  if (composedClusters < LOCOMO_CONV_PAPER_CLUSTERS) {
    // 300 is the smaller companion file; the full one has the paper's 1,069.
    const file =
      composedClusters <= SMALL_COMPOSED_FILE_CLUSTERS
        ? ' (locomo10_multimem.json, not locomo10_multimem_full.json)'
        : '';
    scope.set(
      'composed',
      `${composedClusters} of the paper's ${LOCOMO_CONV_PAPER_CLUSTERS.toLocaleString('en-US')} composed clusters${file}`,
    );
  }
  return scope;
}

/**
 * `question` runs on locomo10.json, as do the composed queries (their gold is LoCoMo evidence);
 * the conversational styles run on whichever dialog file the app loaded (full, or its excerpt).
 */
export async function buildLocomoConv(reader: QueryRunner): Promise<Protocol> {
  const [turns, queries, convTurns, convQueries] = await Promise.all([
    loadTurns(reader, 'locomo'),
    loadQueries(reader, 'locomo'),
    loadTurns(reader, 'locomo-conv'),
    loadQueries(reader, 'locomo-conv'),
  ]);
  const composed = convQueries.filter((q) => q.style === 'composed');
  const dialog = convQueries.filter((q) => q.style !== 'composed');
  const sources: LocomoConvSource[] = [
    { name: 'locomo10', turns, evidence: queries, queries: [...queries, ...composed] },
  ];
  const dialogConversations = [...new Set(convTurns.map((t) => t.conv_id))];
  if (convTurns.length > 0) {
    const conversations = dialogConversations.length;
    sources.push({
      name: `locomo10_dialog (${plural(conversations, 'conversation')})`,
      turns: convTurns,
      evidence: dialog.filter((q) => q.style === 'question'),
      queries: dialog.filter((q) => q.style !== 'question'),
    });
  }
  return {
    ...locomoConvProtocol(sources),
    scope: locomoConvScope(dialogConversations, composed.length),
  };
}
