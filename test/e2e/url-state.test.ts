import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { PageWatch } from '../../scripts/lib/chromium.ts';
import { useHarness } from './harness.ts';

const harness = useHarness({ site: 'plain' });
const watches: PageWatch[] = [];

const TABLE1 = '[data-chart="inmind-table1"] .chart-canvas[data-rendered="true"]';

async function open(context: BrowserContext, url: string): Promise<Page> {
  const { page, watch } = await harness.tab({ context });
  watches.push(watch);
  await page.goto(url);
  return page;
}

async function clipboardContext(): Promise<BrowserContext> {
  return harness.context({ permissions: ['clipboard-read', 'clipboard-write'] });
}

async function copyLink(page: Page): Promise<string> {
  await page.locator('[data-copy-link]').click();
  await page.getByRole('status').filter({ hasText: 'Link copied' }).waitFor();
  return page.evaluate(() => navigator.clipboard.readText());
}

async function inmindSelections(page: Page) {
  await page.waitForSelector('[data-task-card] .indirect-query', { timeout: 120_000 });
  return {
    emb: await page.getByLabel('MiniLM', { exact: true }).isChecked(),
    search: await page.getByLabel('Search tasks').inputValue(),
    sort: await page.locator('th[aria-sort="descending"]').innerText(),
    rows: await page.locator('tr[data-task-id]').count(),
    card: await page.locator('[data-task-card]').getAttribute('data-task-card'),
  };
}

describe('every InMind selection lives in the URL', () => {
  let page: Page;
  let copied = '';

  it('copies a link holding emb, q, sort, dir and task', async () => {
    const context = await clipboardContext();
    page = await open(context, `${harness.site.url}#/inmind`);
    await page.waitForSelector(TABLE1, { timeout: 120_000 });
    await page.getByLabel('MiniLM', { exact: true }).check();
    await page.getByLabel('Search tasks').fill('allergy');
    await page.waitForFunction(() => location.hash.includes('q=allergy'));
    await page.getByRole('button', { name: /^Domain/ }).click();
    await page.getByRole('button', { name: /^Domain/ }).click();
    await page.waitForFunction(() => location.hash.includes('dir=desc'));
    await page.locator('tr[data-task-id="155"]').click();
    copied = await copyLink(page);
    const hash = new URL(copied).hash;
    expect(hash).toBe('#/inmind?dir=desc&emb=MiniLM&q=allergy&sort=domain&task=155');
    expect(copied).toBe(page.url());
  });

  it('reopens the copied link with the same view in a fresh browser context', async () => {
    const first = await inmindSelections(page);
    const context = await harness.context();
    const reopened = await open(context, copied);
    expect(await inmindSelections(reopened)).toEqual(first);
    expect(first).toMatchObject({ emb: true, search: 'allergy', card: '155' });
    expect(first.sort).toMatch(/^Domain/);
    await context.close();
  });

  it('steps back and forward through pushed selections and pages', async () => {
    const others = page.locator('tr[data-task-id]:not([data-task-id="155"])');
    await others.first().waitFor();
    const other = await others.first().getAttribute('data-task-id');
    await page.locator(`tr[data-task-id="${other}"]`).click();
    await page.waitForFunction((id) => location.hash.includes(`task=${id}`), other);
    await page.getByRole('link', { name: 'Playground' }).click();
    await page.waitForSelector('#playground-title');
    await page.goBack();
    await page.waitForSelector(`[data-task-card="${other}"]`);
    await page.goBack();
    await page.waitForSelector('[data-task-card="155"]');
    expect(new URL(page.url()).hash).toContain('emb=MiniLM');
    await page.goForward();
    await page.waitForSelector(`[data-task-card="${other}"]`);
  });
});

describe('the playground keeps case, memories, query and retriever in the URL', () => {
  it('reopens a typed view exactly', async () => {
    const context = await clipboardContext();
    const page = await open(context, `${harness.site.url}#/playground?case=i-485&qv=naive&tiny=on`);
    const memories = page.locator('[data-playground-memories]');
    await expect.poll(() => memories.inputValue(), { timeout: 120_000 }).toMatch(/I-485/);
    await memories.fill('I have a cat.\nMy sister visits on Sunday.');
    await page
      .locator('[data-playground-query]')
      .fill('Which flowers suit the living room? I like lilies.');
    await page.getByRole('radio', { name: /^tiny-bert/ }).check();
    await page.waitForFunction(
      () => location.hash.includes('r=tiny-bert') && location.hash.includes('lilies'),
    );
    const url = await copyLink(page);
    const params = new URLSearchParams(new URL(url).hash.split('?')[1]);
    expect(Object.fromEntries(params)).toEqual({
      case: 'i-485',
      mem: 'I have a cat.\nMy sister visits on Sunday.',
      q: 'Which flowers suit the living room? I like lilies.',
      qv: 'naive',
      r: 'tiny-bert',
      tiny: 'on',
    });

    const fresh = await harness.context();
    const again = await open(fresh, url);
    const memAgain = again.locator('[data-playground-memories]');
    await expect
      .poll(() => memAgain.inputValue(), { timeout: 120_000 })
      .toBe('I have a cat.\nMy sister visits on Sunday.');
    expect(await again.locator('[data-playground-query]').inputValue()).toBe(
      'Which flowers suit the living room? I like lilies.',
    );
    expect(await again.locator('[data-playground-case]').inputValue()).toBe('i-485');
    expect(await again.getByRole('radio', { name: /^tiny-bert/ }).isChecked()).toBe(true);
    await fresh.close();
    await context.close();
  });
});

describe('copy link without clipboard access', () => {
  it('selects the URL in a text field for Ctrl+C', async () => {
    const context = await harness.context();
    await context.addInitScript(() => {
      Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    });
    const page = await open(context, `${harness.site.url}#/inmind?emb=MiniLM`);
    await page.locator('[data-copy-link]').click();
    const field = page.locator('[data-copy-link-text]');
    await field.waitFor();
    expect(await field.inputValue()).toBe(page.url());
    const selection = await field.evaluate((el: HTMLInputElement) => [
      el.selectionStart,
      el.selectionEnd,
      el.value.length,
      document.activeElement === el,
    ]);
    expect(selection).toEqual([0, page.url().length, page.url().length, true]);
    await context.close();
  });
});

describe("Reproduce's protocol options come from the URL, read by their benchmark's schema", () => {
  it('draws the selects the protocol declares, and says which value it could not read', async () => {
    const context = await harness.context();
    const page = await open(
      context,
      `${harness.site.url}#/reproduce?bench=inmind&target=nope&bg=content`,
    );
    const alert = page.locator('[data-bad-option]');
    await alert.waitFor({ timeout: 120_000 });
    expect(await alert.innerText()).toBe(
      `This link's target could not be read ("nope": expected chunk or user): showing chunk instead.`,
    );
    const select = (label: string) =>
      page.locator('.reproduce-controls label').filter({ hasText: label }).locator('select');
    expect(await select('Target memory').inputValue()).toBe('chunk');
    expect(await select('Target memory').locator('option').allInnerTexts()).toEqual([
      'user + assistant message (paper: Naive RAG)',
      "user message only (MemLens's own)",
    ]);
    expect(await select('Background text').inputValue()).toBe('content');
    // LoCoMo-Plus's mode is not InMind's: no select for it.
    expect(await page.locator('select:has(option[value="retrieval"])').count()).toBe(0);
    await context.close();
  });
});

describe('requests and console', () => {
  it('made no request outside the test server and logged no console error', () => {
    for (const w of watches) {
      expect(w.foreignRequests(harness.site.origin)).toEqual([]);
      expect(w.consoleErrors).toEqual([]);
    }
  });
});
