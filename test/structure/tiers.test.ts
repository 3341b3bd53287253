// The tiers of .dependency-cruiser.js (`npm run deps`), run by dependency-cruiser itself on a small
// tree of probe modules: an import up a tier, an undeclared edge inside a tier, a feature reaching
// another one or its core reaching up, and a folder no tier places each fail; a declared edge and an
// import down a tier pass.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { afterEach, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CONFIG = '.dependency-cruiser.js';

const trees: string[] = [];
afterEach(() => {
  for (const tree of trees.splice(0)) rmSync(tree, { recursive: true, force: true });
});

/** A tree with the config at its root and one module per entry, importing the modules listed. */
function probeTree(modules: Record<string, string[]>): string {
  const tree = mkdtempSync(path.join(tmpdir(), 'memlens-tiers-'));
  trees.push(tree);
  copyFileSync(path.join(repoRoot, CONFIG), path.join(tree, CONFIG));
  for (const [file, imports] of Object.entries(modules)) {
    mkdirSync(path.join(tree, path.dirname(file)), { recursive: true });
    const lines = imports.map((to) => {
      const rel = path.relative(path.dirname(file), to).replaceAll('\\', '/');
      const specifier = JSON.stringify(rel.startsWith('.') ? rel : `./${rel}`);
      return `import type {} from ${specifier};`;
    });
    writeFileSync(path.join(tree, file), `${lines.join('\n')}\nexport const probe = 1;\n`);
  }
  return tree;
}

/** The rules each import breaks, as `rule: from → to`. */
async function violations(root: string): Promise<string[]> {
  const options = await extractDepcruiseOptions(path.join(root, CONFIG));
  const { output } = await cruise(['src'], {
    ...options,
    tsConfig: undefined,
    validate: true,
    baseDir: root,
  });
  if (typeof output === 'string') throw new Error(output);
  return output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
}

describe('the tiers of .dependency-cruiser.js', () => {
  it('pass imports down a tier and declared edges inside one', async () => {
    const root = probeTree({
      'src/lib/common/a.ts': [],
      'src/lib/db/a.ts': ['src/lib/common/a.ts', 'src/lib/offline/a.ts'],
      'src/lib/offline/a.ts': [],
      'src/lib/datasets/a.ts': ['src/lib/db/a.ts'],
      'src/lib/userdata/a.ts': ['src/lib/datasets/a.ts'],
      'src/lib/app/a.ts': ['src/lib/userdata/a.ts'],
      'src/pages/a.ts': ['src/lib/app/a.ts', 'src/components/a.ts'],
      'src/components/a.ts': [],
    });
    expect(await violations(root)).toEqual([]);
  });

  it('fail an import up a tier, and one inside a tier that is not declared', async () => {
    const root = probeTree({
      'src/lib/common/a.ts': ['src/lib/db/a.ts'],
      'src/lib/db/a.ts': [],
      'src/lib/userdata/a.ts': [],
      'src/lib/datasets/a.ts': ['src/lib/userdata/a.ts'],
      'src/lib/charts/a.ts': ['src/lib/app/a.ts'],
      'src/lib/app/a.ts': [],
      'src/components/a.ts': ['src/pages/a.ts'],
      'src/pages/a.ts': [],
    });
    expect((await violations(root)).sort()).toEqual([
      'core-imports-app: src/lib/charts/a.ts → src/lib/app/a.ts',
      'tier:charts: src/lib/charts/a.ts → src/lib/app/a.ts',
      'tier:common: src/lib/common/a.ts → src/lib/db/a.ts',
      'tier:datasets: src/lib/datasets/a.ts → src/lib/userdata/a.ts',
      'tier:src/components: src/components/a.ts → src/pages/a.ts',
    ]);
  });

  it('fail a circle between folders even along declared edges', async () => {
    const root = probeTree({
      'src/lib/userdata/a.ts': ['src/lib/datasets/a.ts'],
      'src/lib/datasets/a.ts': ['src/lib/userdata/b.ts'],
      'src/lib/userdata/b.ts': [],
    });
    const found = await violations(root);
    expect(found).toContain('tier:datasets: src/lib/datasets/a.ts → src/lib/userdata/b.ts');
    expect(found.some((v) => v.startsWith('no-folder-circle:'))).toBe(true);
  });

  it('refuse to load while a folder of src/lib or src sits in no tier', async () => {
    const lib = probeTree({ 'src/lib/common/a.ts': [], 'src/lib/newthing/a.ts': [] });
    await expect(extractDepcruiseOptions(path.join(lib, CONFIG))).rejects.toThrow(
      'newthing is in no tier',
    );
    const src = probeTree({ 'src/lib/common/a.ts': [], 'src/newthing/a.ts': [] });
    await expect(extractDepcruiseOptions(path.join(src, CONFIG))).rejects.toThrow(
      'src/newthing is in no tier',
    );
    const feature = probeTree({ 'src/features/newthing/core/a.ts': [] });
    await expect(extractDepcruiseOptions(path.join(feature, CONFIG))).rejects.toThrow(
      'src/features/newthing is in no tier',
    );
  });
});

describe('feature folders', () => {
  it('pass a feature using its core, shared code and the app layer, and a page mounting it', async () => {
    const root = probeTree({
      'src/lib/app/a.ts': ['src/lib/charts/a.ts'],
      'src/lib/charts/a.ts': [],
      'src/components/A.ts': ['src/features/console/core/a.ts'],
      'src/features/playground/core/a.ts': [
        'src/features/playground/core/b.ts',
        'src/lib/charts/a.ts',
      ],
      'src/features/playground/core/b.ts': [],
      'src/features/playground/root.ts': ['src/features/playground/core/a.ts', 'src/lib/app/a.ts'],
      'src/features/playground/View.ts': ['src/features/playground/root.ts', 'src/components/A.ts'],
      'src/features/console/core/a.ts': [],
      'src/pages/registry.ts': ['src/features/playground/View.ts'],
    });
    expect(await violations(root)).toEqual([]);
  });

  it('fail a core reaching its feature, the app layer or Svelte, and a feature reaching another', async () => {
    const root = probeTree({
      'src/lib/app/a.ts': [],
      'src/lib/app/b.svelte.ts': [],
      'src/features/console/core/a.ts': [
        'src/features/console/root.ts',
        'src/lib/app/a.ts',
        'src/lib/app/b.svelte.ts',
      ],
      'src/features/console/root.ts': [],
      'src/features/playground/core/a.ts': ['src/features/console/core/a.ts'],
      'src/features/playground/root.ts': [
        'src/features/console/core/a.ts',
        'src/features/console/root.ts',
      ],
    });
    expect((await violations(root)).sort()).toEqual([
      'core-imports-app: src/features/console/core/a.ts → src/lib/app/a.ts',
      'core-imports-app: src/features/console/core/a.ts → src/lib/app/b.svelte.ts',
      'core-imports-svelte: src/features/console/core/a.ts → src/lib/app/b.svelte.ts',
      'tier:src/features/console/core: src/features/console/core/a.ts → src/features/console/root.ts',
      'tier:src/features/console/core: src/features/console/core/a.ts → src/lib/app/a.ts',
      'tier:src/features/console/core: src/features/console/core/a.ts → src/lib/app/b.svelte.ts',
      'tier:src/features/playground/core: src/features/playground/core/a.ts → src/features/console/core/a.ts',
      'tier:src/features/playground: src/features/playground/root.ts → src/features/console/core/a.ts',
      'tier:src/features/playground: src/features/playground/root.ts → src/features/console/root.ts',
    ]);
  });
});
