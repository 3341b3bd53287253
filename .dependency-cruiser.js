// `npm run deps`: the floor order of src/, declared once and checked (docs/architecture.md).
// A folder imports only folders on floors below its own; folders sharing a floor do not import
// each other. Type-only imports count: they tie the code together as much as any other.

/** Lowest first. Each entry is one floor: the folders (under src/lib/ unless a path is given) on it. */
export const FLOORS = [
  ['common'],
  ['query'],
  ['data', 'analysis'],
  ['offline'],
  ['db'],
  ['datasets', 'console'],
  ['userdata'],
  ['embed'],
  ['vectors'],
  ['protocol-kit'],
  ['map'],
  ['charts'],
  ['benchmarks', 'playground'],
  ['results'],
  ['loaders', 'protocols'],
  ['app'],
  ['src/workers', 'src/service-worker'],
  ['src/browser'],
  ['src/components'],
  ['src/pages'],
  ['src/App.svelte', 'src/styles.css'],
  ['src/main.ts'],
];

const pathOf = (folder) => {
  const full = folder.startsWith('src/') ? folder : `src/lib/${folder}`;
  const escaped = full.replaceAll('.', '\\.');
  return /\.[a-z]+$/.test(full) ? `^${escaped}$` : `^${escaped}/`;
};

const floorRules = FLOORS.flatMap((floor, level) =>
  floor.flatMap((folder) => {
    const notBelow = FLOORS.slice(level)
      .flat()
      .filter((other) => other !== folder);
    if (notBelow.length === 0) return [];
    return {
      name: `floor:${folder}`,
      comment: `${folder} (floor ${level + 1}) imports only folders on floors below it`,
      severity: 'error',
      from: { path: pathOf(folder) },
      to: { path: notBelow.map(pathOf) },
    };
  }),
);

// A query the resolver cannot strip stays in the path; one it strips leaves an asset (`.wasm?url`
// resolves to the .wasm itself). ESLint names every `?url` / `?raw` / `?worker` specifier as well.
const BUNDLER_ONLY = ['\\?(url|raw|worker|sharedworker|inline)(&|$)', '\\.(wasm|css)$'];
const BROWSER_ONLY = ['^src/browser/', '^src/main\\.ts$'];

export default {
  forbidden: [
    ...floorRules,
    {
      name: 'not-on-a-floor',
      comment: 'every module under src/ sits on a floor of FLOORS: add its folder there',
      severity: 'error',
      from: { path: '^src/', pathNot: FLOORS.flat().map(pathOf) },
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
      comment: 'the core (src/lib) never imports the app layer (src/lib/app)',
      severity: 'error',
      from: { path: '^src/lib/', pathNot: '^src/lib/app/' },
      to: { path: '^src/lib/app/' },
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
      comment: 'nothing Node runs (scripts/, src/lib) reaches src/browser/ or a Vite query import',
      severity: 'error',
      from: { path: '^(scripts|src/lib)/' },
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
