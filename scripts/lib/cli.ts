// The one command-line check every script makes before it does any work: `--help` prints the usage
// and exits 0; an unknown option, or an option missing its value, prints why and the usage and
// exits 2. Scripts keep their own parsing; this only guarantees the contract the commands test holds.
// With MEMLENS_CLI_DRY_RUN=1, a command line that passes the check exits 0 before any work: the
// commands test runs each long documented command that way, so a stale flag in a doc fails.

export const DRY_RUN_ENV = 'MEMLENS_CLI_DRY_RUN';
export const DRY_RUN_LINE = 'command line ok (dry run: nothing was run)';

export function dryRunRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[DRY_RUN_ENV] === '1';
}

export interface CliSpec {
  /** What `--help` prints: the command as a reader types it, then one line per option. */
  usage: string;
  /** Options followed by a value (`--out DIR`). */
  values?: readonly string[];
  /** Options that stand alone (`--offline`). */
  flags?: readonly string[];
}

export type CommandLineVerdict = { kind: 'help' } | { kind: 'error'; message: string } | null;

const isHelp = (arg: string) => arg === '--help' || arg === '-h';

/** What the command line asks for before any work: help, a mistake, or nothing (go on). */
export function commandLineVerdict(argv: readonly string[], spec: CliSpec): CommandLineVerdict {
  if (argv.some(isHelp)) return { kind: 'help' };
  const values = new Set(spec.values ?? []);
  const flags = new Set(spec.flags ?? []);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('-')) return { kind: 'error', message: `unexpected argument "${arg}"` };
    const name = arg.split('=')[0];
    if (flags.has(name)) continue;
    if (!values.has(name)) return { kind: 'error', message: `unknown option "${name}"` };
    if (arg.includes('=')) continue;
    const value = argv[i + 1];
    if (value === undefined || (value.startsWith('--') && value.length > 2))
      return { kind: 'error', message: `option "${name}" needs a value` };
    i++;
  }
  return null;
}

/** Applies the verdict to the running process: exits 0 after help, 2 after a mistake. */
export function checkCommandLine(spec: CliSpec, argv: readonly string[] = process.argv.slice(2)) {
  const verdict = commandLineVerdict(argv, spec);
  if (!verdict) {
    if (!dryRunRequested()) return;
    process.stdout.write(`${DRY_RUN_LINE}\n`);
    process.exit(0);
  }
  if (verdict.kind === 'help') {
    process.stdout.write(`${spec.usage.trimEnd()}\n`);
    process.exit(0);
  }
  process.stderr.write(`error: ${verdict.message}\n\n${spec.usage.trimEnd()}\n`);
  process.exit(2);
}
