/**
 * Runs every protocol with BM25 and each real model the site serves, with the same modules as
 * the Reproduce page and `npm run reproduce`, and writes `data/reproduced/memlens.csv`
 * (loaded into DuckDB as the `reproduced` table) plus the Markdown tables of
 * docs/reproduction.md to stdout.
 * Usage: npm run reproduce:publish [-- --models minilm,bge-small] [--out FILE]
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseModelRef } from '../src/lib/embed/model-ref.ts';
import { publishedModelName } from '../src/lib/embed/model-registry.ts';
import { BM25_ID } from '../src/lib/protocol-kit/pool.ts';
import { isWholeSeries, recallTable, separationTable } from '../src/lib/protocol-kit/summary.ts';
import { BENCHMARKS, type BenchmarkId } from '../src/lib/benchmarks/registry.ts';
import { reproducedToCsv, type ReproducedRow } from '../src/lib/results/reproduced-csv.ts';
import { isRelease, openSiteCatalog, parseArgs, reproduce, type CliOptions } from './reproduce.ts';
import { checkModelFiles } from '../src/lib/embed/node-embedder.ts';
import { errorMessage } from '../src/lib/common/error-message.ts';
import { checkCommandLine } from './lib/cli.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HEADLINE_KS = [1, 5, 10];

function flag(name: string): string | null {
  const i = process.argv.indexOf(name);
  return i >= 0 ? (process.argv[i + 1] ?? null) : null;
}

async function servedModels(ids: string[]): Promise<string[]> {
  const served: string[] = [];
  for (const id of ids) {
    try {
      const { spec } = parseModelRef(id, { dtype: 'fp32', backend: 'node' }, '--models');
      await checkModelFiles(spec, path.join(root, 'public/models', id), 'fp32');
      served.push(id);
    } catch (err) {
      console.error(`skip ${id}: ${errorMessage(err)}`);
    }
  }
  return served;
}

interface Job {
  benchmark: BenchmarkId;
  retriever: string;
}

/**
 * The command line of one job, as run here and as printed in its rows' `command` cell. A benchmark
 * whose default is the release's own scores (LoCoMo-Plus) is run in retrieval mode, so every
 * retriever, BM25 included, gets recall@k.
 */
function jobArgs(job: Job): string[] {
  const retriever =
    job.retriever === BM25_ID ? ['--retriever', 'bm25'] : ['--model', job.retriever];
  const args = ['--benchmark', job.benchmark, ...retriever];
  const release = isRelease(parseArgs(['--benchmark', job.benchmark, '--model', 'minilm']).spec);
  return release ? [...args, '--mode', 'retrieval'] : args;
}

/** The rows of one run; a dense one's model, dtype and revision are those of the reference it ran. */
function rowsOf(
  job: Job,
  opts: CliOptions,
  run: Awaited<ReturnType<typeof reproduce>>,
): ReproducedRow[] {
  const { evaluation, protocol } = run;
  const { model: ref } = opts;
  const dense = ref !== null;
  const spec = ref?.spec ?? null;
  const base = {
    paper: 'memlens' as const,
    benchmark: job.benchmark,
    protocol: protocol.notes[0] ?? job.benchmark,
    table: `Reproduced: ${job.benchmark}`,
    row: evaluation.retrieverLabel,
    system: dense ? 'Dense' : 'BM25',
    model: publishedModelName(spec),
    dtype: ref?.dtype ?? '',
    revision: ref?.revision ?? '',
    command: `npm run reproduce -- ${jobArgs(job).join(' ')}`,
  };
  const scopeOf = (series: string) => protocol.scope?.get(series) ?? '';
  const ks = [...new Set([...HEADLINE_KS, protocol.defaultK])].sort((a, b) => a - b);
  const recall = ks.flatMap((k) =>
    recallTable(evaluation, k)
      .filter((c) => isWholeSeries(c) && c.recall !== null)
      .map((c) => ({
        ...base,
        column: `recall@${k} · ${c.series}`,
        value: Number(((c.recall ?? 0) * 100).toFixed(2)),
        unit: '%',
        n: c.queries,
        note: k === protocol.defaultK ? 'headline k (the paper’s)' : '',
        variant: c.series,
        scope: scopeOf(c.series),
        metric: 'recall',
        k,
      })),
  );
  const separation = separationTable(evaluation).flatMap(({ series, stats }) =>
    (['auc', 'ks'] as const).flatMap((metric) =>
      stats[metric] === null
        ? []
        : [
            {
              ...base,
              column: `${metric.toUpperCase()} · ${series}`,
              value: Number((stats[metric] ?? 0).toFixed(4)),
              unit: '',
              n: stats.target.n,
              note: `target n ${stats.target.n} vs background n ${stats.background.n}`,
              variant: series,
              scope: scopeOf(series),
              metric,
              k: null,
            },
          ],
    ),
  );
  return [...recall, ...separation];
}

function markdown(rows: readonly ReproducedRow[]): string {
  const out: string[] = [];
  for (const benchmark of BENCHMARKS) {
    const mine = rows.filter((r) => r.benchmark === benchmark);
    if (mine.length === 0) continue;
    const columns = [...new Set(mine.map((r) => r.column))];
    const systems = [...new Set(mine.map((r) => r.row))];
    out.push(`### ${benchmark}`, '', `| metric | ${systems.join(' | ')} |`);
    out.push(`| --- | ${systems.map(() => '---:').join(' | ')} |`);
    for (const c of columns) {
      const cells = systems.map((s) => {
        const r = mine.find((x) => x.row === s && x.column === c);
        return r ? `${r.value}${r.unit} (n ${r.n})` : '—';
      });
      out.push(`| ${c} | ${cells.join(' | ')} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

checkCommandLine({
  usage: `Usage: npm run reproduce:publish -- [options]

Runs every protocol with BM25 and each real model the site serves (the same modules as the
Reproduce page), writes the long CSV and prints docs/reproduction.md's tables to stdout.

Options:
  --models ID,ID   models to run where the site has them (default minilm,bge-small)
  --out FILE       the CSV to write (default data/reproduced/memlens.csv)
  -h, --help       print this and exit

Exit status: 0 done, 1 failed, 2 bad command line.`,
  values: ['--models', '--out'],
});

const models = await servedModels((flag('--models') ?? 'minilm,bge-small').split(','));
const jobs: Job[] = BENCHMARKS.flatMap((benchmark) =>
  [BM25_ID, ...models].map((retriever) => ({ benchmark, retriever })),
);
const site = path.join(root, 'public');
const { catalog, close } = await openSiteCatalog(site);
const rows: ReproducedRow[] = [];
try {
  for (const job of jobs) {
    const started = performance.now();
    const opts = parseArgs(jobArgs(job));
    const run = await reproduce(opts, catalog);
    rows.push(...rowsOf(job, opts, run));
    console.error(
      `${job.benchmark} × ${job.retriever}: ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }
} finally {
  await close();
}
const out = flag('--out') ?? path.join(root, 'data/reproduced/memlens.csv');
await writeFile(out, reproducedToCsv(rows));
console.error(`wrote ${rows.length} rows to ${path.relative(root, out)}`);
console.log(markdown(rows));
