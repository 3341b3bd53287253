// Two tabs of one browser and one table name: tab B, opened before tab A loaded user_good, never
// takes or overwrites A's stored table. B's suggestion moves on to a free name; a load B forces
// under A's name stays in B only, said so; A's table comes back on A's reload. The harness checks
// both tabs for page errors and requests off the origin.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { useHarness } from './harness.ts';

const dir = path.join(tmpdir(), `memlens-two-tabs-${process.pid}`);
const harness = useHarness({ site: 'plain' });
let context: BrowserContext;

function writeRows(sub: string, n: number): string {
  mkdirSync(path.join(dir, sub), { recursive: true });
  const file = path.join(dir, sub, 'good.jsonl');
  const rows = Array.from({ length: n }, (_, i) => JSON.stringify({ memory: `${sub} ${i}` }));
  writeFileSync(file, `${rows.join('\n')}\n`);
  return file;
}

async function openTab(): Promise<Page> {
  const { page } = await harness.open('#/mydata', {
    context,
    ready: '[data-table-count="inmind_tasks"]',
    timeout: 180_000,
  });
  return page;
}

/** Picks the file and waits for its mapping; returns the table name the page suggests. */
async function pick(page: Page, file: string): Promise<string> {
  await page.locator('input[type="file"]').setInputFiles(file);
  await page.waitForSelector('#mapping-title:has-text("good.jsonl")', { timeout: 120_000 });
  return page.getByRole('textbox', { name: 'Table name' }).inputValue();
}

async function load(page: Page, table: string): Promise<void> {
  await page.getByRole('button', { name: 'Load into DuckDB' }).click();
  await page.waitForSelector(`[data-load-notice]:has-text("into ${table}.")`, { timeout: 120_000 });
}

const kept = (page: Page, table: string) =>
  page.locator(`[data-user-table="${table}"] [data-kept]`).innerText();

beforeAll(async () => {
  // One context: the two tabs share IndexedDB, as two tabs of one browser do.
  context = await harness.context({ viewport: { width: 1300, height: 900 } });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('two tabs, one table name', () => {
  it("tab B never takes or overwrites the table tab A keeps; A's comes back on reload", async () => {
    const tabB = await openTab();
    const tabA = await openTab();
    expect(await pick(tabA, writeRows('a', 20))).toBe('user_good');
    await load(tabA, 'user_good');
    // The list reads the store again after the load: poll for its answer.
    await expect.poll(() => kept(tabA, 'user_good')).toMatch(/^kept in this browser/);

    // B's DuckDB has no user_good, but the store does: B's suggestion moves on.
    const fileB = writeRows('b', 300);
    expect(await pick(tabB, fileB)).toBe('user_good_2');
    // Forced under A's name, B's table is loaded in B only, and B says so.
    await tabB.getByRole('textbox', { name: 'Table name' }).fill('user_good');
    await load(tabB, 'user_good');
    expect(await tabB.locator('[data-load-error]').innerText()).toMatch(
      /^user_good is kept in this browser by another tab: this one stays in this tab only\./,
    );
    await expect.poll(() => kept(tabB, 'user_good')).toBe('not kept: this tab only');
    await expect.poll(() => kept(tabA, 'user_good')).toMatch(/^kept in this browser/);

    await tabA.reload();
    await tabA.waitForSelector('[data-table-count="user_good"]', { timeout: 180_000 });
    await expect
      .poll(() => tabA.locator('[data-table-count="user_good"]').innerText())
      .toMatch(/^20\b/);
  });
});
