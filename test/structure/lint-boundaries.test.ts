// The import boundaries in eslint.config.js, run on snippets placed where the rules apply.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: repoRoot });

async function restricted(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, filePath) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

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
});
