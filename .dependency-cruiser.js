// `npm run deps`: the tiers of src/ and the edges each folder may take, declared once and checked
// (docs/architecture.md). A folder imports any folder of a lower tier; inside its own tier only
// the folders it lists; never a higher tier. Type-only imports count: they tie code together as
// much as any other. A folder under src/, src/lib/ or src/features/ (and a feature's core/) that no
// tier places fails the config itself.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Lowest first. `folders` maps each folder (under src/lib/ unless a path is given) to the folders
 * of the same tier it may import: a new edge inside a tier is a line here, or it is an error.
 */
export const TIERS = [
  {
    name: 'platform',
    comment: 'pure building blocks: types and helpers, SQL text, data formats, statistics',
    folders: { common: [], query: ['common'], data: ['common'], analysis: [] },
  },
  {
    name: 'engines',
    comment: 'DuckDB, the embedder, the vector store and the offline cache',
    folders: { offline: [], db: ['offline'], embed: ['offline'], vectors: ['embed', 'offline'] },
  },
  {
    name: 'domain',
    comment: 'benchmarks, datasets, protocols, charts, results: what MemLens computes and shows',
    folders: {
      datasets: [],
      userdata: ['datasets'],
      'protocol-kit': ['datasets', 'userdata'],
      map: ['datasets', 'protocol-kit'],
      charts: ['map', 'protocol-kit', 'userdata'],
      benchmarks: ['charts', 'datasets', 'protocol-kit'],
      results: ['benchmarks', 'protocol-kit'],
      loaders: ['benchmarks', 'datasets', 'results'],
      protocols: ['benchmarks', 'protocol-kit', 'userdata'],
      'src/features/console/core': [],
      'src/features/mydata/core': ['userdata'],
      'src/features/playground/core': ['charts', 'protocol-kit'],
    },
  },
  {
    name: 'app',
    comment: 'the app layer that wires the core, and the browser hosts (workers, service worker)',
    folders: {
      app: [],
      'src/workers': [],
      'src/service-worker': [],
      'src/browser': ['src/workers'],
    },
  },
  {
    name: 'ui',
    comment:
      'Svelte renders: components, features (root and Svelte), pages, the shell and the entry',
    folders: {
      'src/components': [],
      'src/features/console': ['src/components'],
      'src/features/mydata': ['src/components'],
      'src/features/playground': ['src/components'],
      'src/pages': [
        'src/components',
        'src/features/console',
        'src/features/mydata',
        'src/features/playground',
      ],
      'src/App.svelte': ['src/components', 'src/pages'],
      'src/styles.css': [],
      'src/main.ts': ['src/App.svelte', 'src/styles.css'],
    },
  },
];

/** Folders of src/ that hold no module of their own: they are split into the folders above. */
const CONTAINERS = ['src/lib', 'src/features'];

const placed = TIERS.flatMap((tier) => Object.keys(tier.folders));

/**
 * A feature is `src/features/<name>/`: its composition root and Svelte in tier ui, its UI-free
 * core in `core/`, tier domain. `src/features/x/core` → x, else the feature folder → itself.
 */
const FEATURE = /^src\/features\/([^/]+)(\/core)?$/;
const featureOf = (folder) => FEATURE.exec(folder)?.[1];
const isCore = (folder) => FEATURE.exec(folder)?.[2] !== undefined;

/** Each listed edge names a folder of the same tier, and no folder sits in two tiers. */
function checkTiers() {
  const problems = [];
  const seen = new Set();
  for (const tier of TIERS)
    for (const [folder, edges] of Object.entries(tier.folders)) {
      if (seen.has(folder)) problems.push(`${folder} is placed twice`);
      seen.add(folder);
      for (const to of edges)
        if (!(to in tier.folders) || to === folder)
          problems.push(`${folder} → ${to}: not another folder of tier ${tier.name}`);
    }
  return problems;
}

/** Folders and files of src/, src/lib/ and src/features/ (and each feature's core/) that no tier places. */
export function unplaced(root) {
  const list = (rel) =>
    existsSync(path.join(root, rel))
      ? readdirSync(path.join(root, rel), { withFileTypes: true }).filter(
          (e) => !e.name.startsWith('.'),
        )
      : [];
  const entries = (rel) => list(rel).map((e) => (rel === 'src/lib' ? e.name : `${rel}/${e.name}`));
  const cores = list('src/features')
    .filter((e) => e.isDirectory() && existsSync(path.join(root, 'src/features', e.name, 'core')))
    .map((e) => `src/features/${e.name}/core`);
  return [...entries('src'), ...entries('src/lib'), ...entries('src/features'), ...cores].filter(
    (name) => !placed.includes(name) && !CONTAINERS.includes(name),
  );
}

const repoRoot = path.dirname(fileURLToPath(import.meta.url));
const problems = [
  ...checkTiers(),
  ...unplaced(repoRoot).map((name) => `${name} is in no tier: place it in TIERS`),
];
if (problems.length > 0) throw new Error(`.dependency-cruiser.js:\n  ${problems.join('\n  ')}`);

export const pathOf = (folder) => {
  const full = folder.startsWith('src/') ? folder : `src/lib/${folder}`;
  const escaped = full.replaceAll('.', '\\.');
  return /\.[a-z]+$/.test(full) ? `^${escaped}$` : `^${escaped}/`;
};

const edgesOf = (folder) => TIERS.find((t) => folder in t.folders)?.folders[folder] ?? [];

/**
 * Whether `from` may import `to` (folders as TIERS names them): a lower tier, or a listed edge of
 * the same tier. Features are private to each other: a feature reaches another one's core only
 * where it lists that feature (its own tier's edge) or its core lists that core.
 */
export function mayImport(from, to) {
  const level = (f) => TIERS.findIndex((t) => f in t.folders);
  const [a, b] = [level(from), level(to)];
  if (a < 0 || b < 0) return false;
  const [fromFeature, toFeature] = [featureOf(from), featureOf(to)];
  if (fromFeature === toFeature && fromFeature !== undefined) return isCore(to) || !isCore(from);
  if (fromFeature !== undefined && toFeature !== undefined && isCore(to) && b < a)
    return edgesOf(from).includes(`src/features/${toFeature}`);
  return b < a || from === to || (a === b && edgesOf(from).includes(to));
}

/** Placed folders inside `folder` (a feature's core inside the feature): each has its own rule. */
const nestedIn = (folder) =>
  placed.filter((f) => f !== folder && pathOf(f).startsWith(pathOf(folder)));

const tierRules = TIERS.flatMap((tier) =>
  Object.entries(tier.folders).flatMap(([folder, edges]) => {
    const forbidden = placed.filter((to) => !mayImport(folder, to));
    if (forbidden.length === 0) return [];
    const allowedInside = forbidden
      .flatMap(nestedIn)
      .filter((to) => mayImport(folder, to))
      .map(pathOf);
    const within = edges.length > 0 ? edges.join(', ') : 'none';
    return {
      name: `tier:${folder}`,
      comment: `${folder} (tier ${tier.name}) imports lower tiers and, in its own tier, ${within}`,
      severity: 'error',
      from: { path: pathOf(folder), pathNot: nestedIn(folder).map(pathOf) },
      to: { path: forbidden.map(pathOf), pathNot: allowedInside },
    };
  }),
);

/** The UI-free code Node runs: src/lib but the app layer, and every feature's core. */
const CORE = ['^src/lib/(?!app/)', '^src/features/[^/]+/core/'];

// A query the resolver cannot strip stays in the path; one it strips leaves an asset (`.wasm?url`
// resolves to the .wasm itself). ESLint names every `?url` / `?raw` / `?worker` specifier as well.
const BUNDLER_ONLY = ['\\?(url|raw|worker|sharedworker|inline)(&|$)', '\\.(wasm|css)$'];
const BROWSER_ONLY = ['^src/browser/', '^src/main\\.ts$'];

export default {
  forbidden: [
    ...tierRules,
    {
      name: 'not-in-a-tier',
      comment: 'every module under src/ sits in a tier of TIERS: add its folder there',
      severity: 'error',
      from: { path: '^src/', pathNot: placed.map(pathOf) },
      to: {},
    },
    {
      name: 'no-file-circle',
      comment: 'no module reaches itself through its imports',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-circle',
      comment: 'no folder reaches itself through its modules’ imports',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-imports-app',
      comment: 'the core (src/lib, a feature’s core/) never imports the app layer (src/lib/app)',
      severity: 'error',
      from: { path: CORE },
      to: { path: '^src/lib/app/' },
    },
    {
      name: 'core-imports-svelte',
      comment: 'the core (src/lib but app/, a feature’s core/) never imports Svelte or its runes',
      severity: 'error',
      from: { path: CORE },
      to: { path: ['\\.svelte(\\.ts)?$', '^node_modules/svelte/'] },
    },
    {
      name: 'bundler-only-import',
      comment: 'Vite query imports (?url, ?raw, ?worker) only in src/browser/ and src/main.ts',
      severity: 'error',
      from: { pathNot: BROWSER_ONLY },
      to: { path: BUNDLER_ONLY },
    },
    {
      name: 'node-reaches-bundler-only',
      comment: 'nothing Node runs (scripts/, the core) reaches src/browser/ or a Vite query import',
      severity: 'error',
      from: { path: ['^scripts/', '^src/lib/', ...CORE] },
      to: { path: [...BROWSER_ONLY, ...BUNDLER_ONLY], reachable: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.svelte', '.json'] },
  },
};
