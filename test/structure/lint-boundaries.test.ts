// The import boundaries in eslint.config.js, run on snippets placed where the rules apply.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: repoRoot });

async function flagged(rule: string, filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, filePath) });
  return result.messages.filter((m) => m.ruleId === rule).map((m) => m.message);
}

const restricted = (filePath: string, code: string) =>
  flagged('no-restricted-imports', filePath, code);
const syntax = (filePath: string, code: string) => flagged('no-restricted-syntax', filePath, code);

const WASM_URL =
  "import u from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';\nvoid u;\n";
const WORKER = "new Worker(new URL('./w.ts', import.meta.url), { type: 'module' });\n";
const META_ENV = 'export const dev = import.meta.env.DEV;\n';

describe('import boundaries', () => {
  it('src/lib never imports a Svelte component, a page or a component module', async () => {
    const file = 'src/lib/charts/boundary-probe.ts';
    expect(
      await restricted(file, "import A from '../../components/SqlChart.svelte';\n"),
    ).toHaveLength(2);
    expect(await restricted(file, "import { x } from '../../pages/registry.ts';\n")).toEqual([
      expect.stringContaining(
        'src/lib is UI-free: it never imports from src/pages or src/components.',
      ),
    ]);
    expect(await restricted(file, "import { x } from '../analysis/stats.ts';\n")).toEqual([]);
  });

  it("a feature's core is held to the same: no Svelte component, page or component module", async () => {
    const file = 'src/features/console/core/boundary-probe.ts';
    expect(await restricted(file, "import A from '../ConsolePage.svelte';\n")).toHaveLength(1);
    expect(
      await restricted(file, "import { x } from '../../../components/registry.ts';\n"),
    ).toHaveLength(1);
    expect(await restricted(file, "import { x } from './statements.ts';\n")).toEqual([]);
  });

  it('Svelte files never import src/lib/db, types included', async () => {
    const file = 'src/pages/BoundaryProbe.svelte';
    const svelte = (line: string) => `<script lang="ts">\n  ${line}\n  void x;\n</script>\n`;
    expect(
      await restricted(file, svelte("import { x } from '../lib/db/queries.ts';")),
    ).toHaveLength(1);
    expect(
      await restricted(file, svelte("import type { x } from '../lib/db/engine.ts';")),
    ).toHaveLength(1);
    expect(
      await restricted(file, svelte("import { x } from '../lib/charts/overview.ts';")),
    ).toEqual([]);
  });

  it('bundler-only syntax is refused everywhere Node can reach, and named with the folder to use', async () => {
    for (const file of ['src/lib/embed/probe.ts', 'scripts/probe.ts', 'src/workers/probe.ts']) {
      expect(await restricted(file, WASM_URL), file).toEqual([
        expect.stringContaining('lives in src/browser/'),
      ]);
      expect(await syntax(file, WORKER), file).toEqual([
        expect.stringContaining('lives in src/browser/'),
      ]);
      expect(await syntax(file, META_ENV), file).toEqual([
        expect.stringContaining('lives in src/browser/'),
      ]);
    }
  });

  it('src/browser/ may use it; the core and scripts never import src/browser/', async () => {
    expect(await restricted('src/browser/probe.ts', WASM_URL)).toEqual([]);
    expect(await syntax('src/browser/probe.ts', WORKER)).toEqual([]);
    expect(
      await restricted(
        'src/lib/embed/probe.ts',
        "import { x } from '../../browser/workers.ts';\nvoid x;\n",
      ),
    ).toEqual([expect.stringContaining('src/browser/ is for the page only')]);
    expect(
      await restricted(
        'scripts/probe.ts',
        "import { x } from '../src/browser/workers.ts';\nvoid x;\n",
      ),
    ).toEqual([expect.stringContaining('src/browser/ is for the page only')]);
  });
});
