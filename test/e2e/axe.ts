import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let axeSource: string | null = null;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

interface AxeResults {
  violations: AxeViolation[];
  passes: unknown[];
}

declare global {
  interface Window {
    axe: { run(context: Element | Document, options: object): Promise<AxeResults> };
  }
}

/**
 * Serious and critical axe-core violations under `selector` (the whole document by default),
 * each as `id (impact): help at targets`. Throws when axe checked nothing, so an empty page
 * cannot pass.
 */
export async function seriousViolations(
  page: Page,
  selector: string | null = null,
): Promise<string[]> {
  // Evaluated through the DevTools protocol: the site's CSP forbids inline <script> tags.
  if (!(await page.evaluate(() => 'axe' in window))) {
    axeSource ??= readFileSync(AXE_SCRIPT, 'utf8');
    await page.evaluate(axeSource);
  }
  const { violations, passes } = await page.evaluate(async (sel) => {
    const context = sel ? document.querySelector(sel) : document;
    if (!context) throw new Error(`axe: nothing matches ${sel}`);
    return window.axe.run(context, { resultTypes: ['violations'] });
  }, selector);
  if (passes.length === 0) throw new Error('axe checked nothing');
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
}
