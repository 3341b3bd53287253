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

  it('plans one pack per model and served dtype, none kept in an empty site, each with its own inputs', async () => {
    const { plan } = await planSiteVectors({ site, models: ['minilm'] });
    expect(plan.map((p) => `${p.spec.id}:${p.dtype}`)).toEqual(['minilm:fp32', 'minilm:q8']);
    expect(plan.every((p) => p.kept === null)).toBe(true);
    expect(new Set(plan.map((p) => p.inputs)).size).toBe(2);
    const fp32 = await planSiteVectors({ site, models: ['minilm'], dtypes: ['fp32'] });
    expect(fp32.plan.map((p) => p.dtype)).toEqual(['fp32']);
  });
});
