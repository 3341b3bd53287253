// Every command README.md, docs/ and package.json tell a reader to run, spawned as a child process
// exactly as printed (through bash, so environment prefixes and redirects work as in a terminal).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DRY_RUN_ENV, DRY_RUN_LINE } from '../../scripts/lib/cli.ts';
import { repoRoot } from '../../scripts/lib/site-build.ts';
import { CASES, type CommandCase } from './cases.ts';
import { documentedCommands, packageScripts, scriptCommand } from './documented.ts';
import { freePort } from '../support/free-port.ts';

interface Ran {
  command: string;
  code: number | null;
  seconds: number;
  output: string;
}

const ran: Ran[] = [];

/** A reader's shell: none of the variables this test process was started with for other tests. */
function readerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1', ...extra };
  for (const name of ['MEMLENS_BASE', 'MEMLENS_E2E_PREBUILT', 'VITEST', 'NODE_ENV'])
    delete env[name];
  return env;
}

function spawnShell(command: string, env: NodeJS.ProcessEnv) {
  return spawn('bash', ['-c', command], { cwd: repoRoot, env, detached: true });
}

async function runCommand(command: string, timeoutS: number, extraEnv = {}): Promise<Ran> {
  const started = performance.now();
  const child = spawnShell(command, readerEnv(extraEnv));
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const timer = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), timeoutS * 1000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  // A redirect (`> tables.md`) takes stdout: read the file too.
  const redirect = /> (\S+)\s*$/.exec(command);
  if (redirect && existsSync(path.join(repoRoot, redirect[1])))
    output += readFileSync(path.join(repoRoot, redirect[1]), 'utf8');
  const result = { command, code, seconds: (performance.now() - started) / 1000, output };
  ran.push(result);
  return result;
}

/** Starts a server command with a free port, waits for its URL, fetches `urlPath`, stops it. */
async function runServer(
  command: string,
  urlPath: string,
): Promise<{ status: number; body: string }> {
  const started = performance.now();
  const port = await freePort();
  const line = command.includes('--port') ? command : `${command} -- --port ${port} --strictPort`;
  const child = spawnShell(line, readerEnv());
  let output = '';
  try {
    const origin = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const found = /(http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
        if (found) resolve(found[1]);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => reject(new Error(`${command} exited (${code}):\n${output}`)));
    });
    const res = await fetch(`${origin}${urlPath}`);
    return { status: res.status, body: await res.text() };
  } finally {
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    ran.push({ command, code: 0, seconds: (performance.now() - started) / 1000, output });
  }
}

/** Each script's `--help`, spawned once: every CLI's case and each synopsis of it read it. */
const helps = new Map<string, Promise<Ran>>();
function helpOf(script: string): Promise<Ran> {
  const command = `npm run -s ${script} -- --help`;
  const known = helps.get(command) ?? runCommand(command, 120);
  helps.set(command, known);
  return known;
}

/** The script a command runs (`npm run bench:embed -- …` → `bench:embed`). */
function scriptOf(command: string): string {
  const found = /npm (?:run )?(\S+)/.exec(command);
  if (!found) throw new Error(`no npm script in "${command}"`);
  return found[1];
}

const documented = documentedCommands();
const scripts = packageScripts();
const expected = new Set([...documented.map((d) => d.command), ...scripts.map(scriptCommand)]);

async function check(command: string, c: CommandCase): Promise<void> {
  if (c.kind === 'elsewhere') {
    for (const file of c.files) expect(existsSync(path.join(repoRoot, file)), file).toBe(true);
    return;
  }
  if (c.kind === 'server') {
    const { status, body } = await runServer(command, c.path);
    expect(status).toBe(200);
    expect(body).toMatch(c.body);
    return;
  }
  if (c.kind === 'dry') {
    const result = await runCommand(command, 120, { [DRY_RUN_ENV]: '1' });
    expect(result.output).toContain(DRY_RUN_LINE);
    expect(result.code, result.output).toBe(0);
    return;
  }
  if (c.kind === 'synopsis') {
    const result = await helpOf(scriptOf(command));
    expect(result.code, result.output).toBe(0);
    for (const option of command.match(/--[a-z][\w-]*/g) ?? [])
      expect(result.output, `${option} in --help`).toContain(option);
    return;
  }
  const committed = new Map(
    (c.regenerates ?? []).map((f) => [f, readFileSync(path.join(repoRoot, f))]),
  );
  const installedAt = installStamp();
  try {
    const result = await runCommand(command, c.timeoutS ?? 300);
    expect(result.code, result.output.slice(-4000)).toBe(c.code ?? 0);
    // npm test runs the e2e lane beside this one, from the same node_modules.
    expect(installStamp(), `${command} reinstalled node_modules`).toBe(installedAt);
    for (const pattern of c.out ?? []) expect(result.output).toMatch(pattern);
    for (const file of c.writes ?? [])
      expect(existsSync(path.join(repoRoot, file)), file).toBe(true);
    for (const [file, bytes] of committed)
      expect(readFileSync(path.join(repoRoot, file)).equals(bytes), `${file} as committed`).toBe(
        true,
      );
  } finally {
    for (const file of c.writes ?? [])
      rmSync(path.join(repoRoot, file), { recursive: true, force: true });
    for (const [file, bytes] of committed) writeFileSync(path.join(repoRoot, file), bytes);
  }
}

/** When npm last wrote node_modules (npm ci rewrites this file). */
function installStamp(): number {
  return statSync(path.join(repoRoot, 'node_modules/.package-lock.json')).mtimeMs;
}

afterAll(() => {
  const lines = ran.map(
    (r) => `  ${r.seconds.toFixed(1).padStart(7)} s  exit ${r.code}  ${r.command}`,
  );
  console.log(`commands run (${ran.length}):\n${lines.join('\n')}`);
});

describe('every command a reader is told to run has a case', () => {
  it('each command in README.md and docs/ has one', () => {
    const missing = documented.filter((d) => !(d.command in CASES));
    expect(missing.map((d) => `${d.where}: ${d.command}`)).toEqual([]);
  });

  it('each package.json script has one', () => {
    expect(scripts.map(scriptCommand).filter((c) => !(c in CASES))).toEqual([]);
  });

  it('no case is left for a command nobody prints', () => {
    expect(Object.keys(CASES).filter((c) => !expected.has(c))).toEqual([]);
  });
});

const CLIS = [
  'data',
  'models',
  'reproduce',
  'reproduce:publish',
  'bench:load',
  'bench:figure4',
  'bench:embed',
  'bench:scale',
  'bench:map',
  'profile:embed',
  'embed:pack',
  'vectors',
  'make:tiny-bert',
  'setup:python',
  'verify:bge',
  'pages:offline',
];

describe.concurrent(
  'every CLI answers --help with its usage and an unknown option with exit 2',
  () => {
    for (const script of CLIS) {
      it(`npm run ${script}`, async () => {
        const help = await helpOf(script);
        expect(help.code, help.output).toBe(0);
        expect(help.output).toMatch(/^Usage: /m);
        const wrong = await runCommand(`npm run -s ${script} -- --no-such-option`, 120);
        expect(wrong.code, wrong.output).toBe(2);
        expect(wrong.output).toMatch(/no-such-option/);
      });
    }

    it('npm test -- --help', async () => {
      const help = await runCommand('npm test -- --help', 60);
      expect(help.code, help.output).toBe(0);
      expect(help.output).toMatch(/^Usage: npm test/m);
    });
  },
);

/** Scripts that only read the repository: two of them may run at once (vitest maxConcurrency). */
const READ_ONLY_SCRIPTS = new Set(['reproduce', 'verify:bge']);

/** A case that writes nothing the others read, so it can run beside another. */
function sharesNothing(command: string, c: CommandCase): boolean {
  if (c.kind === 'synopsis' || c.kind === 'dry' || c.kind === 'elsewhere') return true;
  if (c.kind !== 'run' || c.writes || c.regenerates || /[>|&;]/.test(command)) return false;
  return /^npm run (?:-s )?\S+/.test(command) && READ_ONLY_SCRIPTS.has(scriptOf(command));
}

const timeoutOf = (c: CommandCase) =>
  (c.kind === 'run' ? (c.timeoutS ?? 300) : 180) * 1000 + 10_000;

describe.concurrent('each command that only reads, as printed, two at a time', () => {
  for (const [command, c] of Object.entries(CASES)) {
    if (sharesNothing(command, c))
      it(`${c.kind}: ${command}`, () => check(command, c), timeoutOf(c));
  }
});

describe('each command that writes, as printed, one at a time', () => {
  for (const [command, c] of Object.entries(CASES)) {
    if (!sharesNothing(command, c))
      it(`${c.kind}: ${command}`, () => check(command, c), timeoutOf(c));
  }
});
