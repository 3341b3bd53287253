// What the repository's own files may hold: no absolute path of one machine (a reader's checkout
// is elsewhere: paths are relative to the repository, `../shared`, or an environment variable),
// and docs short enough to read: README.md ≤ 10 KB, docs/performance.md ≤ 400 lines, the
// Markdown under docs/ ≤ 200 KB in all.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A POSIX path under a folder that holds one machine's files (home folders, mounts, scratch and
 * temporary space), or a Windows user folder. Not preceded by a word character, a dot, a tilde or
 * a dash, so `public/data/…`, `../shared/…`, `~/.cache/…` and URL paths do not count; temporary
 * files in code come from `os.tmpdir()`, never a literal.
 */
const MACHINE_PATH =
  /(?<![\w.~$@-])\/(?:work|home|Users|root|mnt|media|opt|srv|scratch|tmp)\/[\w.-]|\b[A-Z]:\\(?:Users|home)\\/g;

/** Files that are not text (read as Latin-1 they would only give noise). */
const BINARY = /\.(png|jpe?g|gif|ico|webp|onnx|parquet|wasm|gz|zip)$/i;

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: repoRoot, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '');
}

/** `file:line: match` for each machine path in a text. */
function machinePaths(text: string, file: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(MACHINE_PATH))
      found.push(`${file}:${index + 1}: ${match[0]}…`);
  });
  return found;
}

const KB = 1024;

function bytes(file: string): number {
  return readFileSync(path.join(repoRoot, file)).length;
}

describe('the repository holds no absolute path of one machine', () => {
  it('finds such paths where they are, and not in relative or home-relative ones', () => {
    const slash = '/';
    const bad = [
      `${slash}work/shared/papers/inmind.txt`,
      `cd ${slash}home/alice/memlens`,
      `MEMLENS_CACHE=${slash}tmp/scratch/cache`,
      `"${slash}Users/bob/data"`,
      `file://${slash}mnt/data/x.json`,
      `C:\\Users\\carol\\memlens`,
    ];
    const good = [
      '../shared/papers/inmind.txt',
      'public/data/locomo/locomo10.json',
      '~/.cache/memlens/vectors',
      'https://huggingface.co/home/x',
      "f.path.indexOf('/data/')",
      'os.tmpdir()',
      'C:\\data\\runs.csv',
    ];
    for (const text of bad) expect(machinePaths(text, 'x'), text).toHaveLength(1);
    for (const text of good) expect(machinePaths(text, 'x'), text).toEqual([]);
  });

  it('in any tracked file', () => {
    const found = trackedFiles()
      .filter((f) => !BINARY.test(f))
      .flatMap((f) => machinePaths(readFileSync(path.join(repoRoot, f), 'utf8'), f));
    expect(found).toEqual([]);
  });
});

describe('the docs stay short enough to read', () => {
  const markdown = trackedFiles().filter((f) => f.startsWith('docs/') && f.endsWith('.md'));

  it('README.md is at most 10 KB', () => {
    expect(bytes('README.md')).toBeLessThanOrEqual(10 * KB);
  });

  it('docs/performance.md is at most 400 lines', () => {
    const lines = readFileSync(path.join(repoRoot, 'docs/performance.md'), 'utf8').split('\n');
    expect(lines.length).toBeLessThanOrEqual(400);
  });

  it('the Markdown under docs/ is at most 200 KB in all', () => {
    expect(markdown).toContain('docs/performance.md');
    expect(markdown).toContain('docs/results/inmind.md');
    const total = markdown.reduce((sum, f) => sum + bytes(f), 0);
    expect(total, markdown.map((f) => `${f} ${bytes(f)}`).join('\n')).toBeLessThanOrEqual(200 * KB);
  });
});
