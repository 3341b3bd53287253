// `npm run lint`. Besides the recommended rules, two import boundaries: the UI-free core never
// reaches up into the UI, and Svelte files reach the database only through the app layer.
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
    files: ['src/lib/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: UI_FROM_CORE }] },
  },
  {
    files: ['**/*.svelte'],
    rules: { 'no-restricted-imports': ['error', { patterns: DB_FROM_SVELTE }] },
  },
);
