// Every command a reader is told to run: each line of a shell block in README.md and docs/*.md, each
// inline `npm …` / `npx …` / `bash scripts/…` in their text, each package.json script, and each
// `command` cell of the published reproduced numbers (a reader reruns a row with it).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../scripts/lib/site-build.ts';
import { parseReproducedCsv } from '../../src/lib/results/reproduced-csv.ts';

export interface Documented {
  command: string;
  /** Where it is printed: `README.md:12`, or `package.json` for a script. */
  where: string;
}

const COMMAND_START = /^(?:[A-Z_]+=\S+\s+)*(?:npm|npx|bash|node)\s/;
const FENCE = /^```(\w*)\s*$/;
const INLINE = /`((?:npm|npx|bash scripts\/)[^`]*)`/g;
const SHELL_FENCES = new Set(['bash', 'sh', 'shell', '']);

/** A line as a reader would paste it: its comment and extra blanks removed. */
export function normalizeCommand(line: string): string {
  return line
    .replace(/\s+#\s.*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function markdownFiles(): string[] {
  const docs = readdirSync(path.join(repoRoot, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join('docs', f))
    .sort();
  return ['README.md', ...docs];
}

/** Commands in one Markdown text: shell-block lines that start a command, and inline ones. */
export function commandsInMarkdown(text: string, file: string): Documented[] {
  const found: Documented[] = [];
  /** The text outside code blocks, line for line (an inline command may wrap onto the next line). */
  const prose: string[] = [];
  let fence: string | null = null;
  text.split('\n').forEach((raw, index) => {
    const opened = FENCE.exec(raw.trim());
    prose.push(fence === null && !opened ? raw : '');
    if (opened) {
      fence = fence === null ? opened[1] : null;
      return;
    }
    const line = normalizeCommand(raw);
    if (fence !== null && SHELL_FENCES.has(fence) && COMMAND_START.test(line))
      found.push({ command: line, where: `${file}:${index + 1}` });
  });
  const joined = prose.join('\n');
  for (const match of joined.matchAll(INLINE)) {
    const line = joined.slice(0, match.index).split('\n').length;
    found.push({ command: normalizeCommand(match[1]), where: `${file}:${line}` });
  }
  return found;
}

export const REPRODUCED_CSV = 'data/reproduced/memlens.csv';

/** The distinct `command` cells of the published reproduced numbers. */
export function reproducedCommands(): Documented[] {
  const rows = parseReproducedCsv(
    readFileSync(path.join(repoRoot, REPRODUCED_CSV), 'utf8'),
    REPRODUCED_CSV,
  );
  const commands = [...new Set(rows.map((r) => r.command).filter((c) => c !== ''))];
  return commands.map((command) => ({ command: normalizeCommand(command), where: REPRODUCED_CSV }));
}

export function documentedCommands(): Documented[] {
  const docs = markdownFiles().flatMap((file) =>
    commandsInMarkdown(readFileSync(path.join(repoRoot, file), 'utf8'), file),
  );
  return [...docs, ...reproducedCommands()];
}

/** package.json's scripts: name → the line npm runs. */
export function packageScriptLines(): Readonly<Record<string, string>> {
  const pkg: unknown = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  if (typeof pkg !== 'object' || pkg === null || !('scripts' in pkg)) return {};
  const scripts = pkg.scripts;
  if (typeof scripts !== 'object' || scripts === null) return {};
  return Object.fromEntries(
    Object.entries(scripts).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}

export function packageScripts(): string[] {
  return Object.keys(packageScriptLines()).sort();
}

/** How a reader runs a package.json script. */
export function scriptCommand(name: string): string {
  return name === 'test' || name === 'start' ? `npm ${name}` : `npm run ${name}`;
}

/** A script file and its arguments: what npm ends up running for a command. */
export interface ScriptTarget {
  runner: 'tsx' | 'bash';
  /** Relative to the repository: `scripts/reproduce.ts`. */
  file: string;
  argv: readonly string[];
}

const NPM_RUN = /^npm (?:run (?:-s )?(\S+)|(test|start))(?: -- (.*))?$/;
const SCRIPT_LINE = /^(tsx|bash) (scripts\/[\w-]+\.(?:ts|sh))((?: [\w=-]+)*)$/;
/** Arguments a shell passes on as they are printed: no quotes, expansions or operators. */
const PLAIN_ARGS = /^[\w.,:/@=-]+(?: [\w.,:/@=-]+)*$/;

/**
 * What npm runs for `npm run NAME -- ARGS` (or `npm test -- ARGS`): package.json's line for NAME
 * with ARGS appended (npm's own rule). Null where npm would run more than that line (a pre or post
 * script), or where the line or the arguments need a shell to mean what they say.
 */
export function npmRunTarget(
  command: string,
  scripts: Readonly<Record<string, string>>,
): ScriptTarget | null {
  const found = NPM_RUN.exec(command);
  if (!found) return null;
  const name = found[1] ?? found[2];
  const line = scripts[name];
  if (line === undefined || `pre${name}` in scripts || `post${name}` in scripts) return null;
  const args = found[3] ?? '';
  const parts = SCRIPT_LINE.exec(line);
  if (!parts || (args !== '' && !PLAIN_ARGS.test(args))) return null;
  const fixed = parts[3].split(' ').filter((a) => a !== '');
  const given = args === '' ? [] : args.split(' ');
  return {
    runner: parts[1] === 'tsx' ? 'tsx' : 'bash',
    file: parts[2],
    argv: [...fixed, ...given],
  };
}
