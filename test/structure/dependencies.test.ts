// package.json declares what the code imports, nothing it does not, and the onnxruntime-web that
// the bundle serves is the one transformers.js is built against.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface PackageJson {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

function stringRecord(value: unknown, where: string): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null) throw new Error(`${where}: not an object`);
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw new Error(`${where}.${key}: not a string`);
    out[key] = v;
  }
  return out;
}

function readPackage(file: string): PackageJson {
  const parsed: unknown = JSON.parse(readFileSync(path.join(repoRoot, file), 'utf8'));
  if (typeof parsed !== 'object' || parsed === null) throw new Error(`${file}: not a JSON object`);
  const fields = new Map(Object.entries(parsed));
  const version = fields.get('version');
  return {
    version: typeof version === 'string' ? version : '',
    dependencies: stringRecord(fields.get('dependencies'), `${file} dependencies`),
    devDependencies: stringRecord(fields.get('devDependencies'), `${file} devDependencies`),
  };
}

const own = readPackage('package.json');
const declared = { ...own.dependencies, ...own.devDependencies };

/** Used from configs, the command line or by other tools, never imported by our code. */
const TOOLS: Record<string, string> = {
  '@tsconfig/svelte': 'tsconfig.json extends it',
  '@types/node': 'types for tsc',
  'eslint-plugin-svelte': 'imported by eslint.config.js',
  '@eslint/js': 'imported by eslint.config.js',
  eslint: 'npm run lint',
  'dependency-cruiser': 'npm run deps (the tiers, .dependency-cruiser.js)',
  'typescript-eslint': 'imported by eslint.config.js',
  'prettier-plugin-svelte': '.prettierrc.json',
  'svelte-check': 'npm run check',
  tsx: 'runs the scripts',
  typescript: 'npm run check',
};

const SOURCE_DIRS = ['src', 'scripts', 'test'];
const ROOT_FILES = ['vite.config.ts', 'vitest.config.ts', 'svelte.config.js', 'eslint.config.js'];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return rel === 'test/fixtures' ? [] : sourceFiles(rel);
    return /\.(ts|js|svelte)$/.test(entry.name) ? [rel] : [];
  });
}

const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire(?:\.resolve)?\s*\(\s*|\)\.resolve\(\s*)['"]([^'"\s]+)['"]/g;

/** Package names imported (statically, dynamically or resolved) by our code. */
function importedPackages(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of [...SOURCE_DIRS.flatMap(sourceFiles), ...ROOT_FILES]) {
    const text = readFileSync(path.join(repoRoot, file), 'utf8');
    for (const [, spec] of text.matchAll(SPECIFIER)) {
      if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:')) continue;
      if (spec.startsWith('virtual:')) continue;
      const parts = spec.split('/');
      const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
      if (!found.has(name)) found.set(name, file);
    }
  }
  return found;
}

describe('package.json', () => {
  const imported = importedPackages();

  it('declares every package the code imports', () => {
    const undeclared = [...imported].filter(([name]) => !(name in declared));
    expect(undeclared.map(([name, file]) => `${name} (imported by ${file})`)).toEqual([]);
  });

  it('declares nothing that is neither imported nor a listed tool', () => {
    const unused = Object.keys(declared).filter((name) => !imported.has(name) && !(name in TOOLS));
    expect(unused).toEqual([]);
  });

  it('pins onnxruntime-web to exactly the version transformers.js depends on', () => {
    const transformers = readPackage('node_modules/@huggingface/transformers/package.json');
    const wanted = transformers.dependencies['onnxruntime-web'];
    expect(wanted).toMatch(/^\d+\.\d+\.\d+/);
    expect(own.dependencies['onnxruntime-web']).toBe(wanted);
    expect(readPackage('node_modules/onnxruntime-web/package.json').version).toBe(wanted);
    const nested = 'node_modules/@huggingface/transformers/node_modules/onnxruntime-web';
    expect(existsSync(path.join(repoRoot, nested))).toBe(false);
  });

  it('pins onnxruntime-node (the profiler imports it) to the version transformers.js depends on', () => {
    const transformers = readPackage('node_modules/@huggingface/transformers/package.json');
    const wanted = transformers.dependencies['onnxruntime-node'];
    expect(own.dependencies['onnxruntime-node']).toBe(wanted);
    expect(readPackage('node_modules/onnxruntime-node/package.json').version).toBe(wanted);
    const nested = 'node_modules/@huggingface/transformers/node_modules/onnxruntime-node';
    expect(existsSync(path.join(repoRoot, nested))).toBe(false);
  });
});
