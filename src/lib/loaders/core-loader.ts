import { plural } from '../common/plural.ts';
import type { Catalog } from '../db/catalog.ts';
import type { LoadStep, StepOutcome } from '../common/load-status.ts';
import { PAPERS } from '../benchmarks/registry.ts';
import { parseResultsCsv, type ResultRow } from '../results/results-csv.ts';
import { parseReproducedCsv } from '../results/reproduced-csv.ts';
import { fetchSourceText, fetchVerified, type FetchOptions } from '../data/fetch-source.ts';
import { verifyBytes, type Pin } from '../data/integrity.ts';
import { sourceById } from '../data/sources.ts';
import { inmindManifestRow, inmindTaskRows, lmeBackgroundRows } from '../datasets/inmind.ts';
import { parseJsonDocument } from '../datasets/jsonl.ts';
import { errorMessage } from '../common/error-message.ts';

export interface ResultsFile {
  name: string;
  url: string;
  /** Size and sha256 the build recorded (absent in development). */
  pin?: Pin;
}

type Report = (steps: LoadStep[]) => void;

/** Results rows as DuckDB columns (snake_case). */
export function resultRecords(rows: readonly ResultRow[]) {
  return rows.map((r) => ({
    paper: r.paper,
    table: r.table,
    row: r.row,
    column: r.column,
    value: r.value,
    value_text: r.valueText,
    unit: r.unit,
    note: r.note,
    section: r.section,
    source_line: r.sourceLine,
    system: r.system,
    variant: r.variant,
    metric: r.metric,
    delta: r.delta,
  }));
}

/** `data/reproduced/*.csv` ride in the same file list as the results; each loads into its own table. */
export const REPRODUCED_PREFIX = 'data/reproduced/';
const isReproduced = (f: ResultsFile) => f.name.startsWith(REPRODUCED_PREFIX);

/** A results or reproduced CSV, checked against the size and sha256 the build pinned. */
async function fetchPinnedText(
  f: ResultsFile,
  fetchImpl: typeof fetch,
  evict?: (url: string) => Promise<void>,
): Promise<string> {
  const check = (bytes: Uint8Array, type: string | null) =>
    verifyBytes(f.name, f.pin ?? {}, bytes, type);
  const got = await fetchVerified(f.url, check, { fetchImpl, evict });
  if (!(got instanceof Uint8Array)) throw new Error(`${f.name}: HTTP ${got.status}`);
  return new TextDecoder('utf-8').decode(got);
}

/**
 * MemLens's recomputed numbers as the `reproduced` table; `results_with_reproduced`: the
 * papers' rows and ours in one long table (ours with paper = 'memlens'); `paper_vs_ours`: each
 * paper number a protocol recomputes beside ours, on keys that join (benchmark, system, metric,
 * k, scope, comparability).
 */
export async function loadReproduced(
  catalog: Catalog,
  files: readonly ResultsFile[],
  fetchImpl: typeof fetch = fetch,
  evict?: (url: string) => Promise<void>,
): Promise<number> {
  const mine = files.filter(isReproduced);
  const perFile = await Promise.all(
    mine.map(async (f) => parseReproducedCsv(await fetchPinnedText(f, fetchImpl, evict), f.name)),
  );
  const reproduced = perFile.flat();
  const n = await catalog.loadRows('reproduced', reproduced, 'data/reproduced/*.csv');
  await catalog.createView(
    'results_with_reproduced',
    `SELECT paper, "table", "row", "column", value, unit, note, system, variant, metric,
            NULL AS model, NULL AS revision FROM results
     UNION ALL
     SELECT paper, "table", "row", "column", value, unit, note, system, variant, metric,
            model, revision FROM reproduced`,
  );
  // Without the papers' rows (their step failed) there is nothing to set ours beside. Loaded
  // when needed: the protocol kit it reads is not on the first screen's path.
  if ((await catalog.tableNames()).includes('results')) {
    const { loadPaperVsOurs } = await import('../results/paper-vs-ours.ts');
    await loadPaperVsOurs(catalog, reproduced);
  }
  return n;
}

export async function loadResults(
  catalog: Catalog,
  allFiles: readonly ResultsFile[],
  fetchImpl: typeof fetch = fetch,
  evict?: (url: string) => Promise<void>,
): Promise<number> {
  const files = allFiles.filter((f) => !isReproduced(f));
  const perFile = await Promise.all(
    files.map(async (f) => parseResultsCsv(await fetchPinnedText(f, fetchImpl, evict), f.name)),
  );
  const rows: ResultRow[] = perFile.flat();
  const n = await catalog.loadRows('results', resultRecords(rows), 'data/results/*.csv');
  for (const paper of PAPERS) {
    await catalog.createView(
      `results_${paper.replace('-', '_')}`,
      `SELECT * FROM results WHERE paper = '${paper}'`,
    );
  }
  return n;
}

export async function loadInMind(
  catalog: Catalog,
  opts: FetchOptions,
): Promise<Record<string, number>> {
  const [tasks, background, manifest] = await Promise.all(
    ['inmind-tasks', 'inmind-background', 'inmind-manifest'].map((id) =>
      fetchSourceText(sourceById(id), opts),
    ),
  );
  const taskRows = inmindTaskRows(tasks.text, 'inmind/inmind_en.jsonl');
  const turnRows = lmeBackgroundRows(background.text, 'inmind/lme_s_background.jsonl');
  const manifestRow = inmindManifestRow(
    parseJsonDocument(manifest.text, 'inmind/manifest.json'),
    'inmind/manifest.json',
  );
  return {
    inmind_tasks: await catalog.loadRows('inmind_tasks', taskRows, 'inmind/inmind_en.jsonl'),
    lme_background: await catalog.loadRows(
      'lme_background',
      turnRows,
      'inmind/lme_s_background.jsonl',
    ),
    inmind_manifest: await catalog.loadRows(
      'inmind_manifest',
      [manifestRow],
      'inmind/manifest.json',
    ),
  };
}

/** Runs each step, reporting progress; a failed step is reported and the others still run. */
export async function runSteps(
  plan: { id: string; label: string; run: () => Promise<StepOutcome> }[],
  report: Report,
): Promise<LoadStep[]> {
  const steps: LoadStep[] = plan.map((p) => ({
    id: p.id,
    label: p.label,
    state: 'pending',
    detail: '',
  }));
  const update = (i: number, patch: Partial<LoadStep>) => {
    steps[i] = { ...steps[i], ...patch };
    report([...steps]);
  };
  for (let i = 0; i < plan.length; i++) {
    update(i, { state: 'running' });
    try {
      const outcome = await plan[i].run();
      update(
        i,
        typeof outcome === 'string'
          ? { state: 'done', detail: outcome }
          : { state: 'done', detail: outcome.detail, warnings: outcome.warnings },
      );
    } catch (err) {
      update(i, { state: 'error', detail: errorMessage(err) });
    }
  }
  return steps;
}

export function loadCoreData(
  catalog: Catalog,
  opts: FetchOptions,
  report: Report,
  resultsFiles: readonly ResultsFile[],
): Promise<LoadStep[]> {
  return runSteps(
    [
      {
        id: 'results',
        label: 'Released results',
        run: async () =>
          plural(await loadResults(catalog, resultsFiles, opts.fetchImpl, opts.evict), 'row'),
      },
      ...(resultsFiles.some(isReproduced)
        ? [
            {
              id: 'reproduced',
              label: 'MemLens reproduced numbers',
              run: async () =>
                plural(
                  await loadReproduced(catalog, resultsFiles, opts.fetchImpl, opts.evict),
                  'row',
                ),
            },
          ]
        : []),
      {
        id: 'inmind',
        label: 'InMind benchmark',
        run: async () => {
          const counts = await loadInMind(catalog, opts);
          return Object.entries(counts)
            .map(([t, n]) => `${t}: ${n}`)
            .join(', ');
        },
      },
    ],
    report,
  );
}

/** Every registered benchmark of the 'benchmarks' phase: loaded once a page that reads them is shown. */
export function loadBenchmarkData(
  catalog: Catalog,
  opts: FetchOptions,
  report: Report,
): Promise<LoadStep[]> {
  return runSteps(
    [
      {
        id: 'benchmarks',
        label: 'Conversation benchmarks',
        run: async () => {
          // Loaded with the first page that reads the benchmarks, not on the first screen's path.
          const { collectBenchmarkRows, loadBenchmarkRows } = await import('./benchmark-loader.ts');
          const rows = await collectBenchmarkRows(opts);
          const counts = await loadBenchmarkRows(catalog, rows);
          const summary = Object.entries(counts).map(([t, n]) => `${t}: ${n}`);
          const skipped = rows.skipped.map((s) => s.replace(/^([^:]+): /, '$1 not loaded: '));
          return {
            detail: [...summary, ...rows.skipped.map((s) => `skipped ${s}`)].join(', '),
            warnings: [...rows.warnings, ...skipped],
          };
        },
      },
    ],
    report,
  );
}
