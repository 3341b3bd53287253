// Your data states its formats: a line per shape with a sample made in the page, a sample that
// downloads, loads and declares, and one file whose rows say their kind in a `type` field.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useHarness } from './harness.ts';

const harness = useHarness({ site: 'plain' });
let page: Page;

beforeAll(async () => {
  ({ page } = await harness.tab({ viewport: { width: 1400, height: 1000 } }));
  await page.goto(`${harness.site.url}#/mydata`);
  await page.waitForSelector('[data-table-count="inmind_tasks"]', { timeout: 180_000 });
}, 600_000);

async function loadAndDeclare(table: string, rows: number): Promise<string> {
  await page.getByRole('button', { name: 'Load into DuckDB' }).click();
  await page.waitForSelector(`[data-load-notice]:has-text("${rows} rows")`);
  const form = page.locator(`[data-declaration="${table}"]`);
  await form.locator('[data-part="memory.id"] option[value="fields.id"]').waitFor({
    state: 'attached',
  });
  await form.locator('[data-declare]').click();
  await form.locator('[data-declare-notice], [data-declare-error]').first().waitFor();
  return form.locator('[data-declare-notice], [data-declare-error]').first().innerText();
}

describe('Your data states its formats', () => {
  it('lists memories, queries and a submission, each with a sample', async () => {
    const rows = page.locator('[data-formats] tr[data-sample]');
    expect(
      await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-sample'))),
    ).toEqual([
      'memories.jsonl',
      'queries.jsonl',
      'benchmark.jsonl',
      'typed.jsonl',
      'submission.jsonl',
    ]);
    expect(await page.locator('[data-sample="memories.jsonl"] code').innerText()).toBe(
      '{"id": "m1", "text": "…", "session": "s1", "date": "2026-01-01"}',
    );
    expect(await page.locator('[data-sample="queries.jsonl"] code').innerText()).toBe(
      '{"query": "…", "gold": ["m1"], "category": "family"}',
    );
  });

  it('downloads the benchmark sample, which then loads and declares', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-sample="benchmark.jsonl"] [data-sample-download]'),
    ]);
    expect(download.suggestedFilename()).toBe('benchmark.jsonl');
    const text = readFileSync(await download.path(), 'utf8');
    expect(text.trim().split('\n')).toHaveLength(7);
    await page.locator('input[type="file"]').setInputFiles({
      name: 'benchmark.jsonl',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(text),
    });
    expect(await loadAndDeclare('user_benchmark', 7)).toBe(
      'user_benchmark is a benchmark: 4 memories and 3 queries. Kept in this browser with the table.',
    );
  }, 300_000);

  it('declares a file whose rows carry type: memory / query and share one text field', async () => {
    const lines = [
      { type: 'memory', id: 'a1', text: 'I keep bees on the roof.' },
      { type: 'Memories', id: 'a2', text: 'My flat is on the fifth floor.' },
      { type: 'query', text: 'Where are my hives?', gold: ['a1'], category: 'home' },
    ];
    await page.locator('input[type="file"]').setInputFiles({
      name: 'typed-rows.jsonl',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(lines.map((l) => JSON.stringify(l)).join('\n')),
    });
    expect(await loadAndDeclare('user_typed_rows', 3)).toBe(
      'user_typed_rows is a benchmark: 2 memories and 1 query. Kept in this browser with the table.',
    );
  }, 300_000);

  it('loads the typed sample with Try it', async () => {
    await page.click('[data-sample="typed.jsonl"] [data-sample-load]');
    expect(await loadAndDeclare('user_typed', 7)).toBe(
      'user_typed is a benchmark: 4 memories and 3 queries. Kept in this browser with the table.',
    );
  }, 300_000);

  it('loads the submission sample as an InMind submission', async () => {
    await page.click('[data-sample="submission.jsonl"] [data-sample-load]');
    await page.getByRole('button', { name: 'Load into DuckDB' }).click();
    expect(await page.locator('[data-load-notice]').innerText()).toMatch(
      /^Loaded 2 rows from submission\.jsonl into user_submission/,
    );
  }, 300_000);
});
