/**
 * Runs the Pages workflow's build steps (.github/workflows/pages.yml, job `build`) here, in
 * order, as GitHub would run them: each `run:` with bash -e, its `env:`, `$GITHUB_OUTPUT` and the
 * `${{ steps.<id>.outputs.<name> }}` it feeds; each `uses:` step (checkout, setup-*, the upload
 * and deploy actions) is named and skipped. `--offline` keeps the Hub off (MEMLENS_OFFLINE=1) and
 * reads the benchmark files from ../shared/data, so a broken step shows before a push.
 * The steps run in a fresh copy of the working tree, as actions/checkout gives GitHub one: the
 * workflow's `npm ci` must not replace the node_modules that a dev server or a test run here is
 * using. Only .venv/ is linked (setup-python.sh keeps a venv whose stamp matches; a new one is
 * minutes of pip). The built dist/ is then moved here.
 * Usage: npm run pages:offline [-- --dry-run]   (tsx scripts/pages-steps.ts --offline [--dry-run])
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyWorkingTree } from './lib/files.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const PAGES_WORKFLOW = path.join(root, '.github/workflows/pages.yml');

export const USAGE = `Usage: npm run pages:offline [-- --dry-run]
  Runs .github/workflows/pages.yml's build steps in order (uses: steps are skipped), in a fresh
  copy of this working tree (its node_modules untouched); the built dist/ then replaces ./dist.
  --offline   no Hub (MEMLENS_OFFLINE=1), benchmark files from ../shared/data (required)
  --dry-run   list the steps and what each would run, run nothing
  --help      this text`;

export interface WorkflowStep {
  /** 1-based line of the step's `-` in the workflow file. */
  line: number;
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  env: Record<string, string>;
}

const indentOf = (line: string) => line.length - line.trimStart().length;
const unquote = (v: string) =>
  v
    .trim()
    .replace(/^'(.*)'$/, '$1')
    .replace(/^"(.*)"$/, '$1');

/** The steps of one job, from the block YAML GitHub workflows are written in (this repo's subset). */
export function parseJobSteps(text: string, job: string, file = 'pages.yml'): WorkflowStep[] {
  const lines = text.split('\n');
  const jobAt = lines.findIndex((l) => l === `  ${job}:`);
  if (jobAt < 0) throw new Error(`${file}: no job "${job}"`);
  const stepsAt = lines.findIndex((l, i) => i > jobAt && l === '    steps:');
  if (stepsAt < 0) throw new Error(`${file}:${jobAt + 1}: job "${job}" has no steps`);
  const steps: WorkflowStep[] = [];
  let step: WorkflowStep | null = null;
  let block: { key: 'run' | 'env'; indent: number } | null = null;
  for (let i = stepsAt + 1; i < lines.length; i++) {
    const raw = lines[i];
    if (raw.trim() === '' || raw.trim().startsWith('#')) {
      if (block?.key === 'run' && raw.trim() === '' && step?.run !== undefined) step.run += '\n';
      continue;
    }
    const indent = indentOf(raw);
    if (indent <= 4) break;
    if (block && indent >= block.indent && step) {
      if (block.key === 'run') step.run = `${step.run ?? ''}${raw.slice(block.indent)}\n`;
      else {
        const m = /^\s*([A-Za-z_][A-Za-z0-9_]*):\s*(.*)$/.exec(raw);
        if (!m) throw new Error(`${file}:${i + 1}: expected KEY: value in env`);
        step.env[m[1]] = unquote(m[2]);
      }
      continue;
    }
    block = null;
    let body = raw.trim();
    if (indent === 6 && body.startsWith('- ')) {
      step = { line: i + 1, env: {} };
      steps.push(step);
      body = body.slice(2);
    }
    if (!step) throw new Error(`${file}:${i + 1}: expected a step ("- ")`);
    const m = /^([a-z-]+):\s*(.*)$/.exec(body);
    if (!m) throw new Error(`${file}:${i + 1}: cannot read "${body}"`);
    const [, key, value] = m;
    if (key === 'run' && value === '|') block = { key: 'run', indent: indent + 2 };
    else if (key === 'env' && value === '') block = { key: 'env', indent: indent + 2 };
    else if (key === 'run') step.run = `${unquote(value)}\n`;
    else if (key === 'name' || key === 'id' || key === 'uses') step[key] = unquote(value);
    // `with:` and its map belong to `uses:` steps, which are skipped here.
  }
  return steps;
}

/** `${{ … }}` as GitHub would fill it here: the repository name and earlier steps' outputs. */
export function expand(
  text: string,
  outputs: Map<string, string>,
  repoName: string,
  dryRun = false,
): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    if (expr === 'github.event.repository.name') return repoName;
    const m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
    const value = m ? outputs.get(`${m[1]}.${m[2]}`) : undefined;
    if (value === undefined && dryRun) return `<${expr}>`;
    if (value === undefined) throw new Error(`cannot fill \${{ ${expr} }} here`);
    return value;
  });
}

function readOutputs(file: string, id: string | undefined, outputs: Map<string, string>): void {
  if (!id || !existsSync(file)) return;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) outputs.set(`${id}.${line.slice(0, eq)}`, line.slice(eq + 1));
  }
}

const label = (s: WorkflowStep) => s.name ?? s.uses ?? s.run?.trim().split('\n')[0] ?? '?';

/** dist/ of the copy replaces this checkout's dist/. */
function takeDist(checkout: string): void {
  const built = path.join(checkout, 'dist');
  if (!existsSync(built)) return;
  const here = path.join(root, 'dist');
  rmSync(here, { recursive: true, force: true });
  cpSync(built, here, { recursive: true });
  console.log(`dist/ from the copy is now ${path.relative(process.cwd(), here) || here}`);
}

function runSteps(steps: readonly WorkflowStep[], dryRun: boolean): number {
  const outputs = new Map<string, string>();
  const tmp = mkdtempSync(path.join(tmpdir(), 'memlens-pages-'));
  const checkout = path.join(tmp, 'memlens');
  if (!dryRun) {
    copyWorkingTree(root, checkout, ['.venv']);
    console.log(`checkout: a copy of this working tree in ${checkout} (removed at the end)`);
  }
  const mirror = process.env.MEMLENS_DATA_MIRROR ?? path.resolve(root, '../shared/data');
  const base = { ...process.env, MEMLENS_OFFLINE: '1', MEMLENS_DATA_MIRROR: mirror, CI: 'true' };
  try {
    for (const [n, step] of steps.entries()) {
      const where = `pages.yml:${step.line} step ${n + 1}/${steps.length}`;
      if (step.uses) {
        console.log(`[${where}] skip ${step.uses} (a GitHub action; not run here)`);
        continue;
      }
      const script = expand(step.run ?? '', outputs, 'memlens', dryRun);
      const env = Object.fromEntries(
        Object.entries(step.env).map(([k, v]) => [k, expand(v, outputs, 'memlens', dryRun)]),
      );
      const envText = Object.entries(env)
        .map(([k, v]) => `${k}=${v} `)
        .join('');
      console.log(
        `[${where}] ${label(step)}\n  $ ${envText}${script.trim().replace(/\n/g, '\n    ')}`,
      );
      if (dryRun) continue;
      const out = path.join(tmp, `output-${n}`);
      const started = performance.now();
      const res = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', script], {
        cwd: checkout,
        stdio: 'inherit',
        env: { ...base, ...env, GITHUB_OUTPUT: out },
      });
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      if (res.status !== 0) {
        console.error(
          `[${where}] failed (exit ${res.status ?? res.signal}) after ${seconds} s: ${label(step)}`,
        );
        return 1;
      }
      readOutputs(out, step.id, outputs);
      console.log(`[${where}] ok in ${seconds} s`);
    }
    if (!dryRun) takeDist(checkout);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return 0;
}

function main(): void {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  const unknown = argv.find((a) => a !== '--offline' && a !== '--dry-run');
  if (unknown || !argv.includes('--offline')) {
    const why = unknown ? `unknown option "${unknown}"` : 'only --offline runs exist here (no Hub)';
    console.error(`error: ${why}\n${USAGE}`);
    process.exit(2);
  }
  const steps = parseJobSteps(readFileSync(PAGES_WORKFLOW, 'utf8'), 'build');
  process.exit(runSteps(steps, argv.includes('--dry-run')));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main();
}
