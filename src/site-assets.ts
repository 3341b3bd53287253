import type { ResultsFile } from './lib/data/core-loader.ts';

/**
 * Released-results CSVs and MemLens's reproduced numbers, emitted by Vite as hashed site assets
 * (served by the site, never a CDN).
 */
const urls = import.meta.glob(['../data/results/*.csv', '../data/reproduced/*.csv'], {
  query: '?url',
  import: 'default',
  eager: true,
});

export const RESULTS_FILES: ResultsFile[] = Object.entries(urls)
  .map(([path, url]) => ({ name: path.replace('../', ''), url: String(url) }))
  .sort((a, b) => a.name.localeCompare(b.name));
