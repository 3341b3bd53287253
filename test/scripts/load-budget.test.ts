import { describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { BUDGETS_FILE, initialJs, readBudgets } from '../../scripts/lib/load-budget.ts';

describe('readBudgets', () => {
  it('reads the committed budgets.json', async () => {
    const budgets = await readBudgets(BUDGETS_FILE);
    expect(budgets.initialJsGzipKiB).toBeLessThanOrEqual(96);
    expect(budgets.requestsBeforeFirstChart).toBeGreaterThan(0);
  });

  it('names the file and the field that is not a positive number', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'budgets-'));
    const file = path.join(dir, 'budgets.json');
    await writeFile(file, JSON.stringify({ initialJsGzipKiB: 100, requestsBeforeFirstChart: 'x' }));
    await expect(readBudgets(file)).rejects.toThrow(
      `${file}: "requestsBeforeFirstChart" must be a positive number, got "x"`,
    );
  });
});

describe('initialJs', () => {
  it('sums the entry and its modulepreloads, not lazy chunks or CSS', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'site-'));
    await mkdir(path.join(root, 'assets'));
    const entry = 'console.log("entry");'.repeat(50);
    const preload = 'export const x = 1;';
    await writeFile(path.join(root, 'assets/index.js'), entry);
    await writeFile(path.join(root, 'assets/pre.js'), preload);
    await writeFile(path.join(root, 'assets/lazy.js'), 'lazy');
    await writeFile(
      path.join(root, 'index.html'),
      '<script type="module" src="/memlens/assets/index.js"></script>' +
        '<link rel="modulepreload" href="/memlens/assets/pre.js">' +
        '<link rel="stylesheet" href="/memlens/assets/index.css">',
    );
    const js = await initialJs(root);
    expect(js.files).toEqual(['assets/index.js', 'assets/pre.js']);
    expect(js.raw).toBe(entry.length + preload.length);
    expect(js.gzip).toBe(
      gzipSync(entry, { level: 9 }).length + gzipSync(preload, { level: 9 }).length,
    );
  });
});
