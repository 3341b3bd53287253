// A rank-based stand-in for InMind's Target Recall, read off a submission's recorded contexts.
// The paper has GPT-5-mini judge whether the indirect query's context states the target fact;
// the Reproduce page's proxy asks whether the injected target ranks in the top 5. Here the
// context is the system's retrieval: the target's rank is 1 + the number of distinct background
// turns it holds before the target message, and recall@k counts tasks whose target ranks ≤ k.
import { normalizeForMatch } from './normalize.ts';

export const PROXY_KS = [1, 5, 10] as const;
/** The paper's top-5 context (InMind Table 8), the k the chart sets beside Table 1. */
export const PROXY_K = 5;

export interface ProxyTask {
  task_id: number;
  user_message: string;
}

export interface ProxyBackgroundTurn {
  /** The turn's text without its timestamp suffix. */
  content: string;
}

export interface ProxyContextRow {
  system: string;
  task_id: number;
  context: string;
}

export interface SystemProxy {
  system: string;
  tasks: number;
  /** Tasks whose context holds the target message anywhere (rank any). */
  inContext: number;
  /** k → tasks whose target ranks ≤ k. */
  hits: Record<(typeof PROXY_KS)[number], number>;
  /** Median rank over the tasks whose context holds the target; null when none does. */
  medianRank: number | null;
}

/** Word runs that start background turns, so a context is scanned once, not once per turn. */
const KEY_WORDS = 4;

interface TurnIndex {
  texts: string[];
  byKey: Map<string, number[]>;
}

function keyOf(words: readonly string[], at: number): string {
  return words.slice(at, at + KEY_WORDS).join(' ');
}

export function indexBackground(turns: readonly ProxyBackgroundTurn[]): TurnIndex {
  const texts = turns.map((t) => normalizeForMatch(t.content));
  const byKey = new Map<string, number[]>();
  texts.forEach((text, i) => {
    if (text === '') return;
    const key = keyOf(text.split(' '), 0);
    const list = byKey.get(key);
    if (list) list.push(i);
    else byKey.set(key, [i]);
  });
  return { texts, byKey };
}

/** Offset of each word of a normalised text (words are separated by one space). */
function wordStarts(text: string): { words: string[]; starts: number[] } {
  const words = text.split(' ');
  const starts: number[] = [];
  let offset = 0;
  for (const w of words) {
    starts.push(offset);
    offset += w.length + 1;
  }
  return { words, starts };
}

/**
 * The target's 1-based rank in one context: 1 + the distinct background turns that appear,
 * whole, before the target message's first appearance; null when the target is absent.
 */
export function targetRank(context: string, target: string, index: TurnIndex): number | null {
  const text = normalizeForMatch(context);
  const needle = normalizeForMatch(target);
  if (needle === '') return null;
  const at = text.indexOf(needle);
  if (at < 0) return null;
  const before = new Set<number>();
  const { words, starts } = wordStarts(text);
  for (let i = 0; i < words.length && starts[i] < at; i++) {
    for (const turn of index.byKey.get(keyOf(words, i)) ?? []) {
      if (!before.has(turn) && text.startsWith(index.texts[turn], starts[i])) before.add(turn);
    }
  }
  return before.size + 1;
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Per system, in order of first appearance: tasks, target in context, hits at each k. */
export function submissionProxy(
  tasks: readonly ProxyTask[],
  background: readonly ProxyBackgroundTurn[],
  rows: readonly ProxyContextRow[],
): SystemProxy[] {
  const targets = new Map(tasks.map((t) => [t.task_id, t.user_message]));
  const index = indexBackground(background);
  const ranks = new Map<string, (number | null)[]>();
  for (const row of rows) {
    const target = targets.get(row.task_id);
    if (target === undefined) continue;
    const list = ranks.get(row.system) ?? [];
    list.push(targetRank(row.context, target, index));
    ranks.set(row.system, list);
  }
  return [...ranks].map(([system, list]) => {
    const found = list.filter((r): r is number => r !== null);
    const hitsAt = (k: number) => found.filter((r) => r <= k).length;
    return {
      system,
      tasks: list.length,
      inContext: found.length,
      hits: { 1: hitsAt(1), 5: hitsAt(5), 10: hitsAt(10) },
      medianRank: median(found),
    };
  });
}

/** Share of a system's tasks, 0–1. */
export function proxyShare(proxy: SystemProxy, hits: number): number {
  return proxy.tasks === 0 ? 0 : hits / proxy.tasks;
}
