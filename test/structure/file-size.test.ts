// Files stay small enough to read whole: no tracked Svelte file under src/ over 400 lines, no
// TypeScript file under src/ or scripts/ over 500 (split along a seam: a component per visible
// part, logic into src/lib or scripts/lib).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const LIMITS: readonly { pattern: RegExp; lines: number }[] = [
  { pattern: /^src\/.*\.svelte$/, lines: 400 },
  { pattern: /^(src|scripts)\/.*\.ts$/, lines: 500 },
];

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z', 'src', 'scripts'], {
    cwd: repoRoot,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((f) => f !== '');
}

/** Lines as an editor numbers them: a final newline ends the last line, it does not add one. */
function lineCount(text: string): number {
  if (text === '') return 0;
  return text.replace(/\n$/, '').split('\n').length;
}

/** `file: N lines (limit L)` for each file over its limit. */
function oversized(files: readonly string[], read: (f: string) => string): string[] {
  return files.flatMap((file) => {
    const limit = LIMITS.find((l) => l.pattern.test(file))?.lines;
    if (limit === undefined) return [];
    const n = lineCount(read(file));
    return n > limit ? [`${file}: ${n} lines (limit ${limit})`] : [];
  });
}

describe('files stay within their size limits', () => {
  it('flags a file one line over and none at the limit', () => {
    const text = (n: number) => 'x\n'.repeat(n);
    const sizes: Record<string, number> = {
      'src/pages/A.svelte': 401,
      'src/pages/B.svelte': 400,
      'scripts/c.ts': 501,
      'src/lib/d.ts': 500,
      'test/e.test.ts': 900,
    };
    expect(oversized(Object.keys(sizes), (f) => text(sizes[f]))).toEqual([
      'src/pages/A.svelte: 401 lines (limit 400)',
      'scripts/c.ts: 501 lines (limit 500)',
    ]);
    expect(lineCount('a\nb')).toBe(2);
  });

  it('no tracked Svelte file under src/ over 400 lines, no TypeScript under src/ or scripts/ over 500', () => {
    const files = trackedFiles();
    expect(files.filter((f) => f.endsWith('.svelte')).length).toBeGreaterThan(20);
    expect(oversized(files, (f) => readFileSync(path.join(repoRoot, f), 'utf8'))).toEqual([]);
  });
});
