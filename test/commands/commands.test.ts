// Every command README.md, docs/ and package.json tell a reader to run, spawned as a child process
// exactly as printed (through bash, so environment prefixes and redirects work as in a terminal).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DRY_RUN_ENV, DRY_RUN_LINE } from '../../scripts/lib/cli.ts';
import { repoRoot } from '../../scripts/lib/site-build.ts';
import { CASES, type CommandCase } from './cases.ts';
import {
  documentedCommands,
  npmRunTarget,
  packageScriptLines,
  packageScripts,
  scriptCommand,
  type ScriptTarget,
} from './documented.ts';
import { isParseResult, RESULT_MARK } from './parse-plan.ts';
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

async function runCommand(
  command: string,
  timeoutS: number,
  extraEnv = {},
  stdin = '',
): Promise<Ran> {
  const started = performance.now();
  const child = spawnShell(command, readerEnv(extraEnv));
  child.stdin.end(stdin);
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

/** What `npm run -s SCRIPT -- ARGS` runs, resolved as npm resolves it (documented.ts). */
const scriptLines = packageScriptLines();
function targetOf(command: string): ScriptTarget {
  const target = npmRunTarget(command, scriptLines);
  if (!target)
    throw new Error(`"${command}" is not package.json's line for one script plus arguments`);
  return target;
}

const helpCommand = (script: string) => `npm run -s ${script} -- --help`;
const wrongCommand = (script: string) => `npm run -s ${script} -- --no-such-option`;

/** A command line checked, not run: its script's exit code and output for it, and what it cost. */
interface Parsed extends Ran {
  target: ScriptTarget;
}
const parsedLines: Parsed[] = [];

/**
 * Every tsx command line the cases below only parse, in one process (parse-many.ts): each script's
 * imports load once instead of once per line, and neither npm nor tsx starts per line.
 */
async function parseAll(commands: readonly string[]): Promise<Map<string, Parsed>> {
  const targets = commands.map(targetOf);
  const plan = targets.map((t) => ({ file: t.file, argv: t.argv }));
  const run = await runCommand(
    'tsx test/commands/parse-many.ts',
    300,
    {
      [DRY_RUN_ENV]: '1',
      PATH: `${path.join(repoRoot, 'node_modules/.bin')}:${process.env.PATH ?? ''}`,
    },
    JSON.stringify(plan),
  );
  const line = run.output.split('\n').find((l) => l.startsWith(RESULT_MARK));
  if (run.code !== 0 || !line)
    throw new Error(`parse-many.ts failed (${run.code}):\n${run.output}`);
  const results: unknown = JSON.parse(line.slice(RESULT_MARK.length));
  if (
    !Array.isArray(results) ||
    results.length !== commands.length ||
    !results.every(isParseResult)
  )
    throw new Error(`parse-many.ts: unexpected results ${line.slice(0, 400)}`);
  return new Map(
    commands.map((command, i) => {
      const r = results[i];
      const parsed = {
        command,
        target: targets[i],
        code: r.code,
        seconds: r.ms / 1000,
        output: r.output,
      };
      parsedLines.push(parsed);
      return [command, parsed];
    }),
  );
}

let parsing: Promise<Map<string, Parsed>> | null = null;

/** A command line that only parses: its script's verdict on it, with MEMLENS_CLI_DRY_RUN=1 set. */
async function parsedLine(command: string): Promise<Ran> {
  const target = targetOf(command);
  // A shell script starts in milliseconds: it runs as npm would run it.
  if (target.runner === 'bash')
    return runCommand(`bash ${target.file} ${target.argv.join(' ')}`.trim(), 60, {
      [DRY_RUN_ENV]: '1',
    });
  parsing ??= parseAll(PARSED_COMMANDS.filter((c) => targetOf(c).runner === 'tsx'));
  const found = (await parsing).get(command);
  if (!found) throw new Error(`"${command}" is not in PARSED_COMMANDS`);
  return found;
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
    const result = await parsedLine(command);
    expect(result.output).toContain(DRY_RUN_LINE);
    expect(result.code, result.output).toBe(0);
    return;
  }
  if (c.kind === 'synopsis') {
    const result = await parsedLine(helpCommand(scriptOf(command)));
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
  const parsed = parsedLines.map(
    (r) => `  ${r.seconds.toFixed(2).padStart(7)} s  exit ${r.code}  ${r.command}`,
  );
  console.log(
    `command lines parsed in parse-many.ts (${parsed.length}; a script's first line loads its imports):\n${parsed.join('\n')}`,
  );
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

/**
 * Every command line a case only parses: each CLI's --help and an unknown option, npm test's
 * --help, the dry runs, and the --help each synopsis is checked against.
 */
const PARSED_COMMANDS = [
  ...new Set([
    ...CLIS.flatMap((script) => [helpCommand(script), wrongCommand(script)]),
    'npm test -- --help',
    ...Object.entries(CASES).flatMap(([command, c]) => {
      if (c.kind === 'dry') return [command];
      return c.kind === 'synopsis' ? [helpCommand(scriptOf(command))] : [];
    }),
  ]),
];

describe('a command line that is only parsed is checked against what npm runs for it', () => {
  it("npm's rule: package.json's line with the arguments after -- appended", () => {
    const lines = {
      a: 'tsx scripts/a.ts --fixed',
      b: 'bash scripts/b.sh',
      prec: 'x',
      c: 'tsx scripts/c.ts',
    };
    expect(npmRunTarget('npm run -s a -- --help', lines)).toEqual({
      runner: 'tsx',
      file: 'scripts/a.ts',
      argv: ['--fixed', '--help'],
    });
    expect(npmRunTarget('npm run b', lines)).toEqual({
      runner: 'bash',
      file: 'scripts/b.sh',
      argv: [],
    });
    // npm runs prec first: only a spawn runs that.
    expect(npmRunTarget('npm run c -- --x', lines)).toBeNull();
    // A shell would change these arguments: only a spawn gets them as printed.
    expect(npmRunTarget('npm run a -- --out "my dir"', lines)).toBeNull();
    expect(npmRunTarget('npm run a -- --x > f', lines)).toBeNull();
    expect(npmRunTarget('npm run nope', lines)).toBeNull();
  });

  it('each is one script of package.json with its arguments, and the script is there', () => {
    for (const command of PARSED_COMMANDS) {
      const target = targetOf(command);
      expect(existsSync(path.join(repoRoot, target.file)), `${command}: ${target.file}`).toBe(true);
    }
  });
});

describe.concurrent(
  'every CLI answers --help with its usage and an unknown option with exit 2',
  () => {
    for (const script of CLIS) {
      it(`npm run ${script}`, async () => {
        const help = await parsedLine(helpCommand(script));
        expect(help.code, help.output).toBe(0);
        expect(help.output).toMatch(/^Usage: /m);
        const wrong = await parsedLine(wrongCommand(script));
        expect(wrong.code, wrong.output).toBe(2);
        expect(wrong.output).toMatch(/no-such-option/);
      });
    }

    it('npm test -- --help', async () => {
      const help = await parsedLine('npm test -- --help');
      expect(help.code, help.output).toBe(0);
      expect(help.output).toMatch(/^Usage: npm test/m);
    });
  },
);

/**
 * Scripts that write nothing another case reads: reproduce and verify:bge read the site (reproduce
 * writes under dist/reproduce/ unless --out says where), format:check reads the sources, and
 * embed:pack writes only its --out file.
 */
const OWN_FILES_ONLY = new Set(['reproduce', 'verify:bge', 'format:check', 'embed:pack']);

/** Files two cases write (or one inside another's folder): those cases run one at a time. */
const sharedWrites = (() => {
  const all = Object.values(CASES).flatMap((c) => (c.kind === 'run' ? (c.writes ?? []) : []));
  return new Set(
    all.filter((f, i) =>
      all.some((g, j) => i !== j && (g === f || g.startsWith(f) || f.startsWith(g))),
    ),
  );
})();

/** A case that writes nothing the others read or write, so it can run beside another. */
function sharesNothing(command: string, c: CommandCase): boolean {
  if (c.kind === 'synopsis' || c.kind === 'dry' || c.kind === 'elsewhere') return true;
  if (c.kind !== 'run' || c.regenerates || /[>|;&]/.test(command.replace(/ && /g, ' ')))
    return false;
  if ((c.writes ?? []).some((f) => sharedWrites.has(f))) return false;
  const steps = command.split(' && ');
  return steps.every(
    (step) => /^npm run (?:-s )?\S+/.test(step) && OWN_FILES_ONLY.has(scriptOf(step)),
  );
}

const timeoutOf = (c: CommandCase) =>
  (c.kind === 'run' ? (c.timeoutS ?? 300) : 180) * 1000 + 10_000;

describe.concurrent('each command that shares no file, as printed, beside others', () => {
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
