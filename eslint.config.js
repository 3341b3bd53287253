// `npm run lint`. Besides the recommended rules, import boundaries: the UI-free core never reaches
// up into the UI, Svelte files reach the database only through the app layer, and bundler-only
// syntax (which Node cannot run) lives in src/browser/ alone.
import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import tseslint from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

const UI_FROM_CORE = [
  { regex: '\\.svelte$', message: 'src/lib is UI-free: it never imports a Svelte component.' },
  {
    regex: '(^|/)(pages|components)(/|$)',
    message: 'src/lib is UI-free: it never imports from src/pages or src/components.',
  },
];

const DB_FROM_SVELTE = [
  {
    regex: '(^|/)lib/db(/|$)',
    message: 'Svelte files reach the database through the app layer, never src/lib/db directly.',
  },
];

const BROWSER_FOLDER =
  'bundler-only syntax lives in src/browser/ (Node, and so the CLI, cannot run it): move it there and inject it.';

const BUNDLER_ONLY_IMPORT = {
  regex: '\\?(url|raw|worker|sharedworker|inline)(&|$)',
  message: `Vite query import: ${BROWSER_FOLDER}`,
};

const BROWSER_FROM_NODE = {
  regex: '(^|/)browser/',
  message:
    'src/browser/ is for the page only: the core and scripts take what it makes by injection.',
};

const BUNDLER_ONLY_SYNTAX = [
  {
    selector: "NewExpression[callee.name=/^(Shared)?Worker$/] > NewExpression[callee.name='URL']",
    message: `new Worker(new URL(…)): ${BROWSER_FOLDER}`,
  },
  {
    selector: "MemberExpression[object.type='MetaProperty'][property.name=/^(env|glob|hot)$/]",
    message: `import.meta.env / glob / hot: ${BROWSER_FOLDER}`,
  },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'dist-e2e/',
      'public/',
      'test/fixtures/',
      '.venv/',
      '.cache/',
      'coverage/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs.recommended,
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: {
        parser: tseslint.parser,
        extraFileExtensions: ['.svelte'],
        svelteConfig,
      },
    },
    rules: {
      // TypeScript (svelte-check) resolves names; ESLint would need every DOM and Node global listed.
      'no-undef': 'off',
    },
  },
  {
    files: ['**/*.ts', '**/*.svelte'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    files: ['src/**/*.ts', 'src/**/*.svelte', 'scripts/**/*.ts'],
    // The page's entry (src/main.ts) and src/browser/ are the page alone.
    ignores: ['src/browser/**', 'src/main.ts'],
    rules: { 'no-restricted-syntax': ['error', ...BUNDLER_ONLY_SYNTAX] },
  },
  {
    files: ['scripts/**/*.ts', 'src/workers/**/*.ts', 'src/service-worker/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [BUNDLER_ONLY_IMPORT, BROWSER_FROM_NODE] }],
    },
  },
  {
    // The core: src/lib and each feature's core/ (src/features/<name>/core/).
    files: ['src/lib/**/*.ts', 'src/features/*/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...UI_FROM_CORE, BUNDLER_ONLY_IMPORT, BROWSER_FROM_NODE] },
      ],
    },
  },
  {
    files: ['**/*.svelte'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...DB_FROM_SVELTE, BUNDLER_ONLY_IMPORT] }],
    },
  },
);
