/**
 * The site's own vectors (vector packs beside the data, pinned by sha256): see
 * scripts/lib/site-vectors.ts. `npm start` runs it in its prestart step; it keeps a pack whose
 * inputs are unchanged, and embeds only what the CLI's vector cache lacks.
 * Usage: npm run vectors [-- --models minilm --protocols inmind-figure4 --site DIR]
 */
import path from 'node:path';
import { checkCommandLine } from './lib/cli.ts';
import { buildSiteVectors, defaultSite, SITE_PACK_PROTOCOLS } from './lib/site-vectors.ts';

checkCommandLine({
  usage: `Usage: npm run vectors [-- options]

Embeds the texts of the Reproduce views ${SITE_PACK_PROTOCOLS.join(', ')} with each model in each
dtype the site serves (fp32 on onnxruntime-node, others on onnxruntime-web's WASM as the page,
through the vector cache in ~/.cache/memlens/vectors) into
public/vectors/<model>-<dtype>[-<group>.on-use].parquet, listed with its sha256 in public/vectors/index.json.
A pack whose model, data and protocols are unchanged is kept as it is.

Options:
  --models A,B      model ids (default: every model the site serves)
  --protocols A,B   Reproduce protocols (default: ${SITE_PACK_PROTOCOLS.join(',')})
  --site DIR        the site folder (default public/)
  -h, --help        print this and exit`,
  values: ['--models', '--protocols', '--site'],
});

/** `--name VALUE` or `--name=VALUE` (checkCommandLine has made sure a value follows). */
function value(name: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  return args[i].includes('=') ? args[i].slice(name.length + 3) : args[i + 1];
}

const list = (name: string) => value(name)?.split(',').filter(Boolean);
const siteArg = value('site');
const site = siteArg ? path.resolve(siteArg) : defaultSite;
const started = performance.now();
const report = await buildSiteVectors({
  site,
  models: list('models'),
  protocols: list('protocols'),
  log: (line) => console.log(line),
});
const seconds = ((performance.now() - started) / 1000).toFixed(1);
const names = (packs: { file: string }[]) => packs.map((p) => p.file).join(', ') || 'none';
console.log(
  `vectors: kept ${names(report.kept)}; wrote ${names(report.written)} (${report.counts.computed} texts embedded, ${report.counts.cached} from the vector cache) — ${seconds} s`,
);
