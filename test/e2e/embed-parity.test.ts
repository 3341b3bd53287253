import { beforeAll, describe, expect, it } from 'vitest';
import type { StaticServer } from '../../scripts/lib/static-server.ts';
import { E2E_BASE, buildSite } from '../../scripts/lib/site-build.ts';
import { getModelSpec } from '../../src/lib/embed/model-registry.ts';
import { createNodeEmbedder } from '../../src/lib/embed/node-embedder.ts';
import type { AutomationRequest, AutomationResult } from '../../src/lib/embed/automation.ts';
import type { DeviceChoice } from '../../src/lib/embed/backend-choice.ts';
import { maxAbsDiff, parityTexts, referenceVectors, rows } from '../lib/embed/reference-vectors.ts';
import { parseModelRef } from '../../src/lib/embed/model-ref.ts';
import { useHarness } from './harness.ts';

const TOLERANCE = 1e-4;
const spec = getModelSpec('tiny-bert');
const texts = await parityTexts();

const harness = useHarness({ site: 'plain' });
let isolatedServer: StaticServer;
let reference: Float32Array[];
let node: Float32Array[];

beforeAll(async () => {
  const root = await buildSite();
  isolatedServer = await harness.serve({ root, base: E2E_BASE, crossOriginIsolated: true });
  reference = await referenceVectors(spec, texts);
  const embedder = await createNodeEmbedder({ model: parseModelRef('tiny-bert') });
  try {
    node = rows((await embedder.embed(texts, { kind: 'document' })).vectors, spec.dims);
  } finally {
    await embedder.dispose();
  }
});

/** Embeds the parity texts in a fresh browser context through the page's `window.memlens` hook. */
async function embedInChromium(
  webgpu: boolean,
  request: Partial<AutomationRequest>,
  site: StaticServer = harness.site,
) {
  const { page, context, watch } = await harness.tab({ webgpu });
  await page.goto(`${site.url}#/embeddings`);
  await page.waitForFunction(() => window.memlens !== undefined);
  const full: AutomationRequest = { texts, model: 'tiny-bert', device: 'auto', ...request };
  const result: AutomationResult = await page.evaluate((req) => window.memlens!.embed(req), full);
  await context.close();
  return { result, watch };
}

describe('tiny-bert embeddings agree across runtimes (50 parity texts)', () => {
  it('Node (onnxruntime-node) matches the reference', () => {
    const diff = maxAbsDiff(
      node.flatMap((r) => Array.from(r)),
      spec.dims,
      reference,
    );
    console.info(`parity node vs reference: max abs diff ${diff.toExponential(2)}`);
    expect(diff).toBeLessThan(TOLERANCE);
  });

  const cases: {
    name: string;
    backend: 'wasm' | 'webgpu';
    webgpu: boolean;
    device: DeviceChoice;
    isolated: boolean;
  }[] = [
    { name: 'WASM', backend: 'wasm', webgpu: false, device: 'wasm', isolated: false },
    { name: 'threaded WASM', backend: 'wasm', webgpu: false, device: 'wasm', isolated: true },
    { name: 'WebGPU', backend: 'webgpu', webgpu: true, device: 'webgpu', isolated: false },
  ];
  for (const c of cases) {
    it(`Chromium on ${c.name} matches the reference and Node`, async () => {
      const site = c.isolated ? isolatedServer : harness.site;
      const { result, watch } = await embedInChromium(c.webgpu, { device: c.device }, site);
      // The backend that actually ran: a silent fallback to WASM fails the WebGPU case.
      expect(result.report.backend, result.report.fallbackReason ?? '').toBe(c.backend);
      if (c.backend === 'wasm') expect(result.report.threads > 1).toBe(c.isolated);
      expect(result.dim).toBe(spec.dims);
      expect(result.vectors).toHaveLength(texts.length * spec.dims);
      const vsReference = maxAbsDiff(result.vectors, spec.dims, reference);
      const vsNode = maxAbsDiff(result.vectors, spec.dims, node);
      console.info(
        `parity ${c.name} (${result.report.threads} threads) vs reference: ${vsReference.toExponential(2)}, vs node: ${vsNode.toExponential(2)}`,
      );
      expect(vsReference).toBeLessThan(TOLERANCE);
      expect(vsNode).toBeLessThan(TOLERANCE);
      expect(watch.foreignRequests(site.origin)).toEqual([]);
      expect(watch.consoleErrors).toEqual([]);
    });
  }
});
