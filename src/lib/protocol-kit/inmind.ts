import { domainLabel } from '../common/domain-label.ts';
import { corpusMap, type Corpus, type Protocol, type ProtocolQuery } from './types.ts';

export interface InMindTask {
  task_id: number;
  domain: string;
  user_message: string;
  assistant_message: string;
  naive_query: string;
  query: string;
}

export interface InMindTurn {
  id: string;
  /** The file's `content`, `\n---TIMESTAMP: …` suffix included. */
  raw_content: string;
  /** `raw_content` without the timestamp suffix. */
  content: string;
}

export interface InMindOptions {
  /** `chunk`: user + assistant message as one chunk (Naive RAG, App. 15.3); `user`: the user message alone (App. 9). */
  target: 'chunk' | 'user';
  /** `raw`: each turn as the file has it; `content`: timestamp suffix removed. */
  background: 'raw' | 'content';
}

/** The protocols this kit builds (benchmarks/inmind/ lists them): Naive RAG, then Figure 4. */
export const INMIND_PROTOCOL_IDS = ['inmind', 'inmind-figure4'] as const;

export const INMIND_DEFAULTS: Readonly<InMindOptions> = Object.freeze({
  target: 'chunk',
  background: 'raw',
});

/** Gold id of the injected memory in every task corpus. */
export const TARGET_ID = 'target';
export const INMIND_SERIES = ['naive', 'indirect'] as const;
export const INMIND_K = 5;

export function injectedChunk(task: Pick<InMindTask, 'user_message' | 'assistant_message'>) {
  return `${task.user_message}\n${task.assistant_message}`;
}

export function targetText(task: InMindTask, target: InMindOptions['target']): string {
  return target === 'chunk' ? injectedChunk(task) : task.user_message;
}

/**
 * Paper Table 8 makes the target "one temporary 487th chunk", so it is appended after the 486
 * background turns; on a score tie the lower index ranks first, so ties go against the target.
 */
export function taskCorpus(
  task: InMindTask,
  background: readonly InMindTurn[],
  options: InMindOptions = INMIND_DEFAULTS,
): Corpus {
  const texts = background.map((t) => (options.background === 'raw' ? t.raw_content : t.content));
  return {
    id: `task-${task.task_id}`,
    docs: [...texts, targetText(task, options.target)],
    docIds: [...background.map((t) => t.id), TARGET_ID],
    shared: { id: 'lme-background', size: texts.length },
  };
}

function taskQueries(task: InMindTask, corpusId: string): ProtocolQuery[] {
  const base = { group: domainLabel(task.domain), corpusId, goldIds: [TARGET_ID] };
  return [
    { ...base, id: `${task.task_id}:naive`, series: 'naive', text: task.naive_query },
    { ...base, id: `${task.task_id}:indirect`, series: 'indirect', text: task.query },
  ];
}

/**
 * InMind Figure 4 (App. 9): the indirect query against its target memory (by default the
 * user_message, App. 9's "target memory (the user_message)") and the 486 background turns.
 */
export const INMIND_FIGURE4_DEFAULTS: Readonly<InMindOptions> = Object.freeze({
  target: 'user',
  background: 'raw',
});

export function inmindFigure4Protocol(
  tasks: readonly InMindTask[],
  background: readonly InMindTurn[],
  options: InMindOptions = INMIND_FIGURE4_DEFAULTS,
): Protocol {
  const base = inmindProtocol(tasks, background, options);
  return {
    ...base,
    benchmark: INMIND_PROTOCOL_IDS[1],
    notes: [
      ...base.notes.filter((n) => !n.startsWith('queries:')),
      'queries: query (indirect) only, grouped by domain, as App. 9 pairs each target with its indirect query',
    ],
    queries: base.queries.filter((q) => q.series === 'indirect'),
  };
}

/** InMind Naive RAG (paper App. 15.3): one corpus per task, naive and indirect query on it. */
export function inmindProtocol(
  tasks: readonly InMindTask[],
  background: readonly InMindTurn[],
  options: InMindOptions = INMIND_DEFAULTS,
): Protocol {
  const corpora = tasks.map((t) => taskCorpus(t, background, options));
  return {
    benchmark: INMIND_PROTOCOL_IDS[0],
    notes: [
      `corpus: ${background.length} LME-s background messages + 1 injected target (last)`,
      `target: ${options.target === 'chunk' ? 'user_message + "\\n" + assistant_message' : 'user_message'}`,
      `background text: ${options.background === 'raw' ? 'as in the file (timestamp suffix kept)' : 'timestamp suffix removed'}`,
      'queries: naive_query (naive) and query (indirect), grouped by domain',
    ],
    corpora: corpusMap(corpora),
    queries: tasks.flatMap((t, i) => taskQueries(t, corpora[i].id)),
    defaultK: INMIND_K,
  };
}
