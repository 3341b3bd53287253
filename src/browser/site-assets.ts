import type { ResultsFile } from '../lib/loaders/core-loader.ts';
import { SITE_PINS } from '../lib/offline/build-flags.ts';

/**
 * Released-results CSVs and MemLens's reproduced numbers, emitted by Vite as hashed site assets
 * (served by the site, never a CDN).
 */
const urls = import.meta.glob(['../../data/results/*.csv', '../../data/reproduced/*.csv'], {
  query: '?url',
  import: 'default',
  eager: true,
});

export const RESULTS_FILES: ResultsFile[] = Object.entries(urls)
  .map(([path, url]) => {
    const name = path.replace('../../', '');
    return { name, url: String(url), pin: SITE_PINS[name] };
  })
  .sort((a, b) => a.name.localeCompare(b.name));
