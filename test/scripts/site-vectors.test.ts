import { mkdtemp, rm, symlink, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/site-build.ts';
import { planSiteVectors, servedDtypes } from '../../scripts/lib/site-vectors.ts';
import { getModelSpec } from '../../src/lib/embed/model-registry.ts';

let site: string;

beforeAll(async () => {
  site = path.join(await mkdtemp(path.join(tmpdir(), 'memlens-site-plan-')), 'public');
  await mkdir(site);
  await symlink(path.join(repoRoot, 'public/data'), path.join(site, 'data'));
});

afterAll(async () => {
  if (site) await rm(path.dirname(site), { recursive: true, force: true });
});

describe('the site vectors plan', () => {
  it('serves MiniLM in fp32 first, then q8: the dtypes whose files public/models has', () => {
    expect(servedDtypes(getModelSpec('minilm'))).toEqual(['fp32', 'q8']);
  });

  it('plans one pack per model, served dtype and group of views, none kept in an empty site, each with its own inputs', async () => {
    const { plan } = await planSiteVectors({ site, models: ['minilm'] });
    const groups = ['inmind', 'locomo', 'locomo-conv'];
    expect(plan.map((p) => `${p.spec.id}:${p.dtype}:${p.group.name}`)).toEqual([
      ...groups.map((g) => `minilm:fp32:${g}`),
      ...groups.map((g) => `minilm:q8:${g}`),
    ]);
    expect(plan.every((p) => p.kept === null)).toBe(true);
    expect(new Set(plan.map((p) => p.inputs)).size).toBe(6);
    const fp32 = await planSiteVectors({ site, models: ['minilm'], dtypes: ['fp32'] });
    expect(new Set(fp32.plan.map((p) => p.dtype))).toEqual(new Set(['fp32']));
    const conv = await planSiteVectors({
      site,
      models: ['minilm'],
      dtypes: ['fp32'],
      groups: [{ name: 'locomo-conv', protocols: ['locomo-conv'] }],
    });
    expect(conv.plan.map((p) => p.group.name)).toEqual(['locomo-conv']);
  });
});
