// One case per command a reader is told to run (test/commands/documented.ts finds them). A command
// printed in README.md, docs/ or package.json without a case here fails commands.test.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../scripts/lib/site-build.ts';

export type CommandCase =
  /** Spawned exactly as printed, in the repository; its exit code and output checked. */
  | {
      kind: 'run';
      code?: number;
      out?: readonly RegExp[];
      /** Files it writes that must exist afterwards (then removed). */
      writes?: readonly string[];
      /** Tracked files it rewrites: they must come out byte-for-byte as committed. */
      regenerates?: readonly string[];
      timeoutS?: number;
    }
  /** A server: spawned as printed, asked for `path` once it prints its URL, then stopped. */
  | { kind: 'server'; path: string; body: RegExp }
  /** Long work (a benchmark): spawned as printed with MEMLENS_CLI_DRY_RUN=1, so its flags are checked. */
  | { kind: 'dry' }
  /** A synopsis with placeholders: every option it names is in the script's --help. */
  | { kind: 'synopsis' }
  /** Run by something else that CI runs; the files named must exist. */
  | { kind: 'elsewhere'; why: string; files: readonly string[] };

const RUN = (extra: Omit<Extract<CommandCase, { kind: 'run' }>, 'kind'> = {}): CommandCase => ({
  kind: 'run',
  ...extra,
});
const DRY: CommandCase = { kind: 'dry' };
const SYNOPSIS: CommandCase = { kind: 'synopsis' };
const SITE: CommandCase = { kind: 'server', path: '/', body: /<div id="app">/ };

/** InMind Table 1's Naive RAG control, recall@5: naive and indirect (docs/reproduction.md). */
const BM25_AT_5 = [/recall@5\s+naive\s+53\.6%/, /recall@5\s+indirect\s+0\.8%/];
const MINILM_AT_5 = [/recall@5\s+naive\s+95\.2%/, /recall@5\s+indirect\s+1\.6%/];
const NO_BGE = [/bge-small/, /npm run models/];

const OWN_FILE = 'test/fixtures/userdata/own-benchmark.jsonl';
const OWN_RANKS: unknown = JSON.parse(
  readFileSync(path.join(repoRoot, 'test/fixtures/userdata/own-benchmark.ranks.json'), 'utf8'),
);
/** "best target rank per query: line 51 → 3, line 52 → 1, …" with the stored ranks. */
function ownRanks(retriever: 'bm25' | 'minilm'): RegExp {
  const ranks =
    typeof OWN_RANKS === 'object' && OWN_RANKS !== null && retriever in OWN_RANKS
      ? Object.entries(OWN_RANKS).find(([k]) => k === retriever)?.[1]
      : null;
  if (!Array.isArray(ranks)) throw new Error(`own-benchmark.ranks.json: no ${retriever} ranks`);
  const shown = ranks.map((r, i) => `line ${51 + i} → ${String(r)}`).join(', ');
  return new RegExp(`best target rank per query: ${shown}$`, 'm');
}

export const CASES: Readonly<Record<string, CommandCase>> = {
  // README's first two commands.
  'npm ci && npm start': {
    kind: 'elsewhere',
    why: '.ci/run runs npm ci on a fresh clone; test/e2e/dev-server.test.ts spawns npm start and opens every route',
    files: ['.ci/run', 'test/e2e/dev-server.test.ts'],
  },
  'npm ci': {
    kind: 'elsewhere',
    why: '.ci/run runs it on a fresh clone (here it would replace the node_modules this test runs from)',
    files: ['.ci/run'],
  },
  'npm test': {
    kind: 'elsewhere',
    why: '.ci/run runs it, and this test is part of it',
    files: ['.ci/run', 'scripts/run-tests.ts'],
  },
  'npm start': SITE,
  'npm run dev': SITE,
  'MEMLENS_DATA_MIRROR=../shared/data npm start': SITE,
  'npm run prestart': RUN({ out: [/models/] }),
  'npm run -s prestart': RUN({ out: [/models/] }),
  'npm start -- --port 5199 --strictPort': SITE,
  'npm run test:unit': {
    kind: 'elsewhere',
    why: 'npm test runs the unit project',
    files: ['vitest.config.ts'],
  },
  'npm run test:e2e': {
    kind: 'elsewhere',
    why: 'npm test runs the e2e project',
    files: ['vitest.config.ts', 'test/e2e/global-setup.ts'],
  },

  // Data and models.
  'npm run data': RUN({ out: [/memlens data/] }),
  'npm run data -- --mirror ../shared/data': RUN({ out: [/memlens data/] }),
  'bash scripts/setup-python.sh': RUN({ out: [/reference venv/] }),
  'npm run setup:python': RUN({ out: [/reference venv/] }),
  'npm run models': RUN({ out: [/minilm/], timeoutS: 900 }),
  'npm run models -- --offline': RUN({ out: [/minilm/], timeoutS: 900 }),
  // Here the Hub cannot be reached: naming BGE-small with --only is an error that says so.
  'npm run models -- --only tiny-bert,minilm,bge-small': RUN({ code: 1, out: [/bge-small/] }),
  'npm run models -- --mirror DIR': SYNOPSIS,
  'npm run models [-- --mirror DIR] [--only id,id] [--if-missing] [--offline]': SYNOPSIS,
  'npm run probes': DRY,
  'npm run probes -- --only bge-small': RUN({ code: 1, out: [/bge-small: no .*npm run models/] }),
  'npm run make:tiny-bert': RUN({
    out: [/wrote .*tiny-bert/],
    regenerates: [
      'test/fixtures/models/tiny-bert/config.json',
      'test/fixtures/models/tiny-bert/onnx/model.onnx',
    ],
  }),

  // Checks and builds.
  'npm run check': {
    kind: 'elsewhere',
    why: 'npm test runs it first (scripts/run-tests.ts)',
    files: ['scripts/run-tests.ts', 'tsconfig.node.json'],
  },
  'npm run lint': {
    kind: 'elsewhere',
    why: 'npm test runs it first (scripts/run-tests.ts)',
    files: ['scripts/run-tests.ts', 'eslint.config.js'],
  },
  'npm run deps': {
    kind: 'elsewhere',
    why: 'npm test runs it first (scripts/run-tests.ts), as it runs check and lint',
    files: ['scripts/run-tests.ts', '.dependency-cruiser.js'],
  },
  'npm run format:check': RUN({ out: [/All matched files use Prettier/] }),
  'npm run format': {
    kind: 'elsewhere',
    why: 'it rewrites files; npm run format:check runs the same Prettier without writing',
    files: ['.prettierrc.json'],
  },
  'npm run build': RUN({ out: [/built in|✓/], timeoutS: 600 }),
  'npm run prebuild': RUN({ out: [/memlens models/] }),
  // The Pages workflow's steps in order, its build last: the Pages build line below, as pages.yml runs it.
  'npm run pages:offline': RUN({
    out: [
      /checkout: a copy of this working tree/,
      /MEMLENS_REDISTRIBUTABLE_ONLY=1/,
      /npm run build/,
    ],
    timeoutS: 900,
  }),
  'MEMLENS_BASE=/memlens/ MEMLENS_REDISTRIBUTABLE_ONLY=1 MEMLENS_COI=sw npm run build': {
    kind: 'elsewhere',
    why: 'npm run pages:offline (above) runs this build as the Pages workflow does, with MEMLENS_MAX_FILE_MB=100',
    files: ['scripts/pages-steps.ts', '.github/workflows/pages.yml'],
  },
  // After the Pages build above: the same dist/ under its subpath.
  'MEMLENS_BASE=/memlens/ npm run preview': {
    kind: 'server',
    path: '/memlens/',
    body: /<div id="app">/,
  },
  'npm run preview': { kind: 'server', path: '/', body: /<div id="app">/ },

  // Reproduce.
  'npm run reproduce': RUN({ out: BM25_AT_5 }),
  'npm run reproduce -- --help': RUN({ out: [/^Usage: npm run reproduce/m] }),
  'npm run reproduce -- --benchmark inmind --retriever bm25': RUN({ out: BM25_AT_5 }),
  'npm run reproduce -- --benchmark inmind --retriever bm25 --k 5': RUN({ out: BM25_AT_5 }),
  'npm run reproduce -- --benchmark inmind --retriever bm25 --time 7': RUN({
    out: [...BM25_AT_5, /recompute every figure from cached tokens: .* over 7 runs/],
  }),
  'npm run reproduce -- --benchmark inmind --model minilm': RUN({
    out: MINILM_AT_5,
    timeoutS: 900,
  }),
  'npm run reproduce -- --benchmark inmind --model minilm --out out/': RUN({
    out: MINILM_AT_5,
    writes: ['out/'],
    timeoutS: 900,
  }),
  'npm run reproduce -- --benchmark inmind --model tiny-bert --time 15': RUN({
    out: [/tiny-bert/, /recompute every figure from cached vectors: .* over 15 runs/],
  }),
  // BGE-small is not on a site built here: a clear error naming the model and the command.
  'npm run reproduce -- --benchmark inmind-figure4': RUN({ code: 1, out: NO_BGE }),
  'npm run reproduce -- --benchmark locomo-plus --model bge-small': RUN({ code: 1, out: NO_BGE }),
  'npm run reproduce -- --benchmark locomo-plus --model ID': SYNOPSIS,
  'npm run reproduce -- --benchmark locomo-conv --retriever bm25': RUN({ out: [/recall@10/] }),
  // MiniLM's fp32 vectors come from the vector cache the MiniLM cases above filled; q8 embeds once.
  'npm run reproduce -- --benchmark inmind --compare bm25,minilm': RUN({
    out: [
      /bm25 − minilm +Δrecall@5 +b +1 +c +53 +p +6\.1e-15/,
      /bm25 − minilm +Δrecall@5 +b +0 +c +1 +p +1\.0000/,
      /tie groups at recall@5: \{minilm\} · \{bm25\}/,
    ],
    timeoutS: 900,
  }),
  // docs/protocols.md's inline form (InMind is the default benchmark): the same run as the next
  // case, which also writes its files, so this one checks the line parses.
  'npm run reproduce -- --compare bm25,minilm,minilm:q8': DRY,
  // q8 runs on onnxruntime-web's WASM, as the page, one text per pass: these are its numbers on
  // any CPU (recorded; test/e2e/q8-wasm-parity.test.ts shows the page gives the same).
  'npm run reproduce -- --benchmark inmind --compare bm25,minilm,minilm:q8 --out out/compare/': RUN(
    {
      out: [
        /minilm \(all-MiniLM-L6-v2 fp32 on onnxruntime-node cpu\), minilm:q8 \(all-MiniLM-L6-v2 q8 on onnxruntime-web wasm\)/,
        /minilm:q8 +84\.0% \[76\.6, 89\.4\] +94\.4% \[88\.9, 97\.3\] +97\.6% \[93\.2, 99\.2\] +0\.997/,
        /minilm:q8 +0\.0% \[0\.0, 3\.0\] +1\.6% \[0\.4, 5\.6\] +4\.8% \[2\.2, 10\.1\] +0\.693/,
        /minilm − minilm:q8 +Δrecall@5 +b +1 +c +0 +p +1\.0000/,
        /tie groups at recall@5: \{minilm, minilm:q8\} · \{bm25\}/,
      ],
      writes: ['out/compare/comparison.csv', 'out/compare/summary.txt'],
      // 849 texts one per pass on WASM: about 2 min of CPU, 7 on a loaded 2-core machine.
      timeoutS: 1200,
    },
  ),
  // docs/protocols.md, bringing a model: a pack of InMind's texts (MiniLM's vectors from the vector
  // cache the cases above filled) ranks exactly as MiniLM; an ONNX folder's reference parses; the
  // Hub cannot be reached here (test/scripts/brought.test.ts runs hub: against a local stand-in).
  'npm run embed:pack -- --benchmark inmind --model minilm --out inmind-minilm.parquet && npm run reproduce -- --benchmark inmind --compare bm25,minilm,pack:inmind-minilm.parquet':
    RUN({
      out: [
        /inmind-minilm\.parquet: 849 vectors of inmind's texts, 384 dims, minilm fp32/,
        /minilm − pack:inmind-minilm\.parquet +Δrecall@5 +b +0 +c +0 +p +1\.0000/,
        /tie groups at recall@5: \{minilm, pack:inmind-minilm\.parquet\} · \{bm25\}/,
      ],
      writes: ['inmind-minilm.parquet'],
      timeoutS: 900,
    }),
  // docs/protocols.md, a submission as a retriever: the fixture's known ranks against BM25.
  'npm run reproduce -- --benchmark inmind --compare bm25,submission:test/fixtures/userdata/submission-ranked.jsonl':
    RUN({
      out: [
        /submission-ranked\.jsonl:RankedRAG: covers 4 of 125 tasks \(naive from naive\.context; indirect from query\.context\), so every retriever is paired on 4 queries/,
        /bm25 − submission:\S+:RankedRAG +Δrecall@5 +b +0 +c +2 +p +0\.5000/,
        /bm25 − submission:\S+:RankedRAG +ΔAUC +— \[—, —\]/,
      ],
      timeoutS: 300,
    }),
  'npm run reproduce -- --benchmark inmind --compare minilm,onnx:./my-model': DRY,
  'npm run reproduce -- --benchmark inmind --compare minilm,hub:OWNER/NAME@COMMIT': SYNOPSIS,
  'npm run embed:pack -- --benchmark B --model M --out FILE': SYNOPSIS,
  'npm run reproduce -- --benchmark locomo-conv --retriever bm25 --format csv': RUN({
    out: [/^benchmark,|,recall,|recall@?10/m],
  }),
  // Your own benchmark (docs/user-data.md): the ranks the Reproduce page shows in
  // test/e2e/own-benchmark.test.ts, stored in own-benchmark.ranks.json.
  [`npm run reproduce -- --benchmark-file ${OWN_FILE}`]: RUN({
    out: [/recall@5\s+query\s+80\.0% \[/, ownRanks('bm25'), /wrote 9 files/],
  }),
  [`npm run reproduce -- --benchmark-file ${OWN_FILE} --model minilm`]: RUN({
    out: [/recall@5\s+query\s+90\.0% \[/, ownRanks('minilm')],
  }),
  'npm run reproduce -- --benchmark-file FILE.jsonl --mapping FILE.json': SYNOPSIS,
  // The command cells of data/reproduced/memlens.csv: the publish run below recomputes every row and
  // must equal them; these check that each printed command line still parses.
  'npm run reproduce -- --benchmark inmind-figure4 --retriever bm25': DRY,
  'npm run reproduce -- --benchmark inmind-figure4 --model minilm': DRY,
  'npm run reproduce -- --benchmark locomo --retriever bm25': DRY,
  'npm run reproduce -- --benchmark locomo --model minilm': DRY,
  'npm run reproduce -- --benchmark inmind --model minilm:q8': DRY,
  'npm run reproduce -- --benchmark locomo-plus --retriever bm25 --mode retrieval': DRY,
  'npm run reproduce -- --benchmark locomo-plus --model minilm --mode retrieval': DRY,
  'npm run reproduce -- --benchmark locomo-conv --model minilm': DRY,
  'npm run reproduce:publish': {
    kind: 'elsewhere',
    why: 'the same run as `npm run reproduce:publish > tables.md` below, without the redirect',
    files: ['scripts/publish-reproduced.ts'],
  },
  'npm run reproduce:publish > tables.md': RUN({
    writes: ['tables.md'],
    regenerates: ['data/reproduced/memlens.csv'],
    timeoutS: 1500,
  }),

  // BGE-small's checks need the Hub: here each step fails at once and says so.
  'npm run verify:bge': RUN({ code: 1, out: [/Hub/] }),
  'npm run verify:bge -- --step parity': RUN({ code: 1, out: [/Hub/] }),
  'npm run verify:bge -- --step locomo-plus': RUN({ code: 1, out: [/Hub/] }),
  'npm run verify:bge -- --step protocols': RUN({ code: 1, out: [/Hub/] }),
  'npm run verify:bge -- --step rows': RUN({ code: 1, out: [/Hub/] }),

  // Vector packs.
  // The real run is the prestart test's vectors stage and test/e2e/site-vectors.test.ts.
  'npm run vectors': DRY,
  'npm run vectors -- --models minilm --protocols inmind-figure4': DRY,
  'npm run embed:pack': RUN({ code: 2, out: [/--out FILE is required/] }),
  'npm run embed:pack -- --out lme.parquet': RUN({ out: [/486/], writes: ['lme.parquet'] }),
  'npm run embed:pack -- --model tiny-bert --out lme.parquet': RUN({
    out: [/486/],
    writes: ['lme.parquet'],
  }),
  'npm run embed:pack -- --model minilm --jsonl corpus.jsonl --field text --out big.parquet': DRY,

  // Benchmarks: minutes each, so their command lines are checked, not run (docs/performance.md has their figures).
  'npm run bench:embed': DRY,
  'npm run bench:embed -- --runs 1 --batches 32 --no-webgpu': DRY,
  'npm run bench:embed -- --compare-plans 32:0,256:1024,256:4096 --runs 2 --dtypes fp32,q8': DRY,
  'npm run bench:lighthouse': DRY,
  'npm run bench:load': DRY,
  'npm run bench:load -- --runs 3 --window 10': DRY,
  'npm run bench:figure4': DRY,
  'npm run bench:figure4 -- --dtype fp32,q8': DRY,
  'npm run bench:figure4 -- --runs 3': DRY,
  'npm run bench:figure4 -- --dtype q8 --runs 3': DRY,
  'npm run bench:scale': DRY,
  'npm run bench:scale -- --also-kernel simd --also-max 100000': DRY,
  'npm run bench:map': DRY,
  'npm run profile:embed': DRY,
  'npm run profile:embed -- --one-thread': DRY,

  // Test files the docs point at: npm test runs each of them.
  'npx vitest run --project e2e test/e2e/offline-reload.test.ts': {
    kind: 'elsewhere',
    why: 'npm test runs the e2e project',
    files: ['test/e2e/offline-reload.test.ts'],
  },
  'npx vitest run --project e2e test/e2e/embedding-map.test.ts': {
    kind: 'elsewhere',
    why: 'npm test runs the e2e project',
    files: ['test/e2e/embedding-map.test.ts'],
  },
  'npx vitest run --project e2e test/e2e/fault-injection.test.ts': {
    kind: 'elsewhere',
    why: 'npm test runs the e2e project',
    files: ['test/e2e/fault-injection.test.ts'],
  },
  'npx vitest run --project e2e test/e2e/fault-injection.test.ts -t "10⁶ keys|endless"': {
    kind: 'elsewhere',
    why: 'npm test runs the whole file',
    files: ['test/e2e/fault-injection.test.ts'],
  },
  'npx vitest run --project e2e test/e2e/site-vectors.test.ts': {
    kind: 'elsewhere',
    why: 'npm test runs the e2e project',
    files: ['test/e2e/site-vectors.test.ts'],
  },
  'npx vitest run --project e2e test/e2e/site-vectors-locomo.test.ts': {
    kind: 'elsewhere',
    why: 'npm test runs the e2e project',
    files: ['test/e2e/site-vectors-locomo.test.ts'],
  },
  'npx vitest run --project e2e test/e2e/shared-vectors.test.ts': {
    kind: 'elsewhere',
    why: 'npm test runs the e2e project',
    files: ['test/e2e/shared-vectors.test.ts'],
  },
  'npx vitest run --project e2e test/e2e/model-integrity.test.ts': {
    kind: 'elsewhere',
    why: 'npm test runs the e2e project',
    files: ['test/e2e/model-integrity.test.ts'],
  },
  'npx vitest run --project unit test/lib/data test/lib/offline test/lib/db test/lib/userdata test/lib/embed':
    {
      kind: 'elsewhere',
      why: 'npm test runs the unit project',
      files: [
        'test/lib/data',
        'test/lib/offline',
        'test/lib/db',
        'test/lib/userdata',
        'test/lib/embed',
      ],
    },
  'npx vitest run --project e2e test/e2e/q8-wasm-parity.test.ts': {
    kind: 'elsewhere',
    why: 'npm test runs the e2e project',
    files: ['test/e2e/q8-wasm-parity.test.ts'],
  },
  'npx vitest run --project e2e test/e2e/load-budgets.test.ts': {
    kind: 'elsewhere',
    why: 'npm test runs the e2e project',
    files: ['test/e2e/load-budgets.test.ts', 'budgets.json'],
  },
  'npx vitest run --project e2e test/e2e/layout-shift.test.ts': {
    kind: 'elsewhere',
    why: 'npm test runs the e2e project',
    files: ['test/e2e/layout-shift.test.ts'],
  },
  'npx vitest run --project e2e test/e2e/console-sandbox.test.ts': {
    kind: 'elsewhere',
    why: 'npm test runs the e2e project',
    files: ['test/e2e/console-sandbox.test.ts'],
  },
  'npx vitest run --project unit test/features/console test/lib/db/engine.test.ts test/lib/offline test/features/mydata/core/url-source.test.ts test/lib/userdata/mapping.test.ts':
    {
      kind: 'elsewhere',
      why: 'npm test runs the unit project',
      files: [
        'test/features/console',
        'test/lib/db/engine.test.ts',
        'test/lib/offline',
        'test/features/mydata/core/url-source.test.ts',
        'test/lib/userdata/mapping.test.ts',
      ],
    },
  // README's fast loop: parts of what npm test runs, picked by a change, a path or a name.
  'npx vitest run --project unit --changed': {
    kind: 'elsewhere',
    why: 'npm test runs the unit project',
    files: ['vitest.config.ts'],
  },
  'npx vitest run --project unit --changed main': {
    kind: 'elsewhere',
    why: 'npm test runs the unit project',
    files: ['vitest.config.ts'],
  },
  'npx vitest run --project unit test/lib/db': {
    kind: 'elsewhere',
    why: 'npm test runs the unit project',
    files: ['test/lib/db'],
  },
  'npx vitest run --project commands -t "reproduce"': {
    kind: 'elsewhere',
    why: 'npm test runs the commands project, this file among them',
    files: ['test/commands/commands.test.ts'],
  },
  'npx vitest run --project e2e test/e2e/first-chart.test.ts': {
    kind: 'elsewhere',
    why: 'npm test runs the e2e project',
    files: ['test/e2e/first-chart.test.ts'],
  },
  'npm test -- --project unit': {
    kind: 'elsewhere',
    why: "CI's static-and-unit job runs it (.github/workflows/test.yml); npm test runs the same checks and project",
    files: ['.github/workflows/test.yml', 'scripts/run-tests.ts'],
  },
  // docs/deploy.md: the test workflow's commands job.
  'npx vitest run --project commands': {
    kind: 'elsewhere',
    why: 'npm test runs the commands project, this file among them',
    files: ['test/commands/commands.test.ts', '.github/workflows/test.yml'],
  },
  'npx vitest run --project unit test/lib/charts -u': {
    kind: 'elsewhere',
    why: 'it rewrites snapshots; npm test runs the same files against them',
    files: ['test/lib/charts'],
  },
};
