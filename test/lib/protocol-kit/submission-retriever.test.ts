import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../../src/lib/db/catalog.ts';
import { openNodeEngine } from '../../../src/lib/db/node-engine.ts';
import { loadInMind } from '../../../src/lib/loaders/core-loader.ts';
import { buildProtocol } from '../../../src/lib/protocols/build.ts';
import { readReproduceParams } from '../../../src/lib/protocols/params.ts';
import {
  escapeSystem,
  formatSubmissionRef,
  parseSubmissionRef,
  readSubmission,
  restrictProtocol,
  scopeLine,
  submissionRun,
} from '../../../src/lib/protocol-kit/submission-retriever.ts';
import { bm25Retriever } from '../../../src/lib/protocol-kit/bm25-retriever.ts';
import { evaluateProtocol } from '../../../src/lib/protocol-kit/evaluate.ts';
import { compareCompute, readCompareRefs } from '../../../src/lib/protocols/compare-run.ts';
import {
  cellOf,
  comparisonCsvRows,
  comparisonLines,
} from '../../../src/lib/protocol-kit/compare-report.ts';
import type { EmbedderHub } from '../../../src/lib/embed/embedder-hub.ts';
import { SITE, siteFetch } from '../data/site-fetch.ts';
import { GOOD_DIR, fixture } from '../userdata/helpers.ts';
import { loadAsPage } from '../userdata/duckdb.ts';

const TABLE = 'user_submission_ranked';
const MISSING = 'Load it again.';
let catalog: Catalog;

beforeAll(async () => {
  catalog = new Catalog(await openNodeEngine());
  await loadInMind(catalog, { siteBase: SITE, allowUpstream: false, fetchImpl: siteFetch() });
  await loadAsPage(catalog, fixture(GOOD_DIR, 'submission-ranked.jsonl'));
});

afterAll(async () => {
  await catalog.engine.close();
});

const view = readReproduceParams({ bench: 'inmind' });

describe('the submission reference', () => {
  it('reads sub:TABLE:SYSTEM and submission:FILE[:SYSTEM], a comma in a name escaped', () => {
    expect(parseSubmissionRef('sub:user_x:Ranked RAG')).toEqual({
      kind: 'table',
      table: 'user_x',
      system: 'Ranked RAG',
    });
    expect(parseSubmissionRef('submission:runs/a.jsonl')).toEqual({
      kind: 'file',
      path: 'runs/a.jsonl',
      system: null,
    });
    const ref = { kind: 'table', table: 'user_x', system: 'a,b%2C:c' } as const;
    expect(formatSubmissionRef(ref)).toBe('sub:user_x:a%2Cb%252C:c');
    expect(formatSubmissionRef(ref)).not.toContain(',');
    expect(parseSubmissionRef(formatSubmissionRef(ref))).toEqual(ref);
    expect(escapeSystem('100%')).toBe('100%25');
    expect(parseSubmissionRef('bm25')).toBeNull();
    expect(parseSubmissionRef('minilm:q8')).toBeNull();
  });

  it('refuses a table that is not a user table, a missing system and an empty file', () => {
    expect(() => parseSubmissionRef('sub:inmind_tasks:X')).toThrow(/TABLE a table of Your data/);
    expect(() => parseSubmissionRef('sub:user_x')).toThrow(/name the system, sub:user_x:SYSTEM/);
    expect(() => parseSubmissionRef('sub:user_x:  ')).toThrow(/system name is empty/);
    expect(() => parseSubmissionRef('submission:')).toThrow(/expected submission:FILE/);
  });
});

describe("a submission's system as a retriever", () => {
  // Task 4's context numbers seven chunks before the target, but [1] and [4] are one background
  // turn, counted once ("distinct turns"): rank 6, as the Your data proxy has it.
  it('ranks the fixture as known: indirect 1, 5, 6, none; naive 1 then none', async () => {
    const protocol = await buildProtocol(view.spec, catalog);
    const input = await readSubmission(catalog, TABLE, 'RankedRAG', 'sub:x', MISSING);
    const run = await submissionRun(protocol, 'sub:x', 'RankedRAG', input);
    const ranks = Object.fromEntries(
      run.evaluation.outcomes.map((o) => [o.query.id, o.targetRank]),
    );
    expect(ranks).toEqual({
      '0:naive': 1,
      '0:indirect': 1,
      '3:naive': null,
      '3:indirect': 5,
      '4:naive': null,
      '4:indirect': 6,
      '5:naive': null,
      '5:indirect': null,
    });
    expect(run.evaluation.outcomes.every((o) => o.top.length === 0)).toBe(true);
    expect(run.scope).toMatchObject({ tasks: 4, of: 125, series: ['naive', 'indirect'] });
    expect(run.scope.contexts.get('3:indirect')?.rank).toBe(5);
    expect(run.revision).toMatch(/^proxy:sha256:[0-9a-f]{64}$/);
    expect(scopeLine(run.scope, 8)).toMatch(
      /^covers 4 of 125 tasks \(naive from naive\.context; indirect from query\.context\), so every retriever is paired on 8 queries; .*proxy.*no AUC/,
    );
  });

  it('pairs with BM25 on the queries it covers, outcomes unchanged by the narrowing', async () => {
    const protocol = await buildProtocol(view.spec, catalog);
    const input = await readSubmission(catalog, TABLE, 'Summariser', 'sub:s', MISSING);
    const run = await submissionRun(protocol, 'sub:s', 'Summariser', input);
    const ids = new Set(run.evaluation.outcomes.map((o) => o.query.id));
    const narrowed = restrictProtocol(protocol, ids);
    expect(narrowed.queries.map((q) => q.id)).toEqual([
      '0:naive',
      '0:indirect',
      '3:naive',
      '3:indirect',
    ]);
    expect([...narrowed.corpora.keys()]).toEqual(['task-0', 'task-3']);
    const whole = await evaluateProtocol(protocol, bm25Retriever());
    const paired = await evaluateProtocol(narrowed, bm25Retriever());
    for (const o of paired.outcomes) {
      expect(o.targetRank).toBe(whole.outcomes.find((w) => w.query.id === o.query.id)?.targetRank);
    }
  });

  it('names what is wrong: no table, another kind, no such system, another benchmark', async () => {
    await expect(
      readSubmission(catalog, 'user_gone', 'A', 'sub:user_gone:A', MISSING),
    ).rejects.toThrow('sub:user_gone:A: no table user_gone is loaded here. Load it again.');
    await expect(readSubmission(catalog, TABLE, 'Nobody', 'sub:n', MISSING)).rejects.toThrow(
      'sub:n: user_submission_ranked (from submission-ranked.jsonl) has no system "Nobody"; it has "RankedRAG", "Summariser"',
    );
    await loadAsPage(catalog, fixture(GOOD_DIR, 'records.jsonl'));
    await expect(readSubmission(catalog, 'user_records', 'A', 'sub:r', MISSING)).rejects.toThrow(
      /sub:r: user_records \(from records\.jsonl\) was loaded as \w+, not as an InMind submission/,
    );
    const input = await readSubmission(catalog, TABLE, 'RankedRAG', 'sub:x', MISSING);
    const locomo = { ...(await buildProtocol(view.spec, catalog)), benchmark: 'locomo' };
    await expect(submissionRun(locomo, 'sub:x', 'x', input)).rejects.toThrow(
      /compare it on InMind \(bench=inmind\), not locomo/,
    );
  });
});

describe('a submission in the comparison (compareCompute, as the page runs it)', () => {
  const noHub = new Proxy({} as EmbedderHub, {
    get: () => {
      throw new Error('BM25 and a submission need no embedder');
    },
  });
  const compute = compareCompute({ hub: noHub, served: Promise.resolve(new Map()) });
  const run = (cmp: string) =>
    compute(
      catalog,
      { view, refs: readCompareRefs(cmp).refs, k: null, alpha: 0.05 },
      new AbortController().signal,
      () => undefined,
      () => undefined,
    );

  it('pairs BM25 and both systems on the tasks both systems cover, AUC absent for them', async () => {
    const ranked = `sub:${TABLE}:RankedRAG`;
    const summ = `sub:${TABLE}:Summariser`;
    const { comparison: c } = await run(`bm25,${ranked},${summ}`);
    expect(c.series).toEqual(['naive', 'indirect']);
    expect(cellOf(c, ranked, 'indirect', 'recall', 5)).toMatchObject({ value: 1, queries: 2 });
    expect(cellOf(c, summ, 'indirect', 'recall', 5)).toMatchObject({ value: 0.5, queries: 2 });
    expect(cellOf(c, ranked, 'naive', 'recall', 1)).toMatchObject({ value: 0.5, queries: 2 });
    expect(cellOf(c, ranked, 'indirect', 'auc', null)?.value).toBeNull();
    expect(cellOf(c, 'bm25', 'indirect', 'auc', null)?.value).not.toBeNull();
    const pair = c.pairs.find(
      (p) => p.a === ranked && p.b === summ && p.series === 'indirect' && p.k === 5,
    );
    expect(pair).toMatchObject({ onlyA: 1, onlyB: 0, p: 1, queries: 2 });
    const note = c.retrievers.find((r) => r.ref === ranked)?.note ?? '';
    expect(note).toMatch(/^covers 4 of 125 tasks .* paired on 4 queries/);
    const csv = comparisonCsvRows(c).find(
      (r) => r.retriever_a === 'bm25' && r.retriever_b === ranked,
    );
    expect(csv?.revision_b).toMatch(/^proxy:sha256:/);
    expect(csv?.note_b).toBe(note);
    expect(csv?.note_a).toBeNull();
    expect(comparisonLines(c).join('\n')).toContain(`${summ}: covers 2 of 125 tasks`);
  });

  it('says what to load again when the table is gone', async () => {
    await expect(run('bm25,sub:user_lost:A')).rejects.toThrow(
      'sub:user_lost:A: no table user_lost is loaded here. Load the InMind submission file that made user_lost again on Your data',
    );
  });
});
