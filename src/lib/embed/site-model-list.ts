// The home page's list of embedding models: which the site serves, in which dtypes, where their
// files came from, and for the ones it lacks, why and the one command that adds them.
import { offeredSpecs, type ModelDtype, type ModelSpec } from './model-registry.ts';
import { describeOrigin, type ModelOrigins } from './model-origins.ts';
import type { SiteModels } from './site-models.ts';

/** The command that puts every model the machine can reach on the site. */
export const ADD_MODELS_COMMAND = 'npm run models';

export interface SiteModelRow {
  id: string;
  label: string;
  /** Served dtypes; empty when the site lacks the model. */
  dtypes: ModelDtype[];
  /** The registry's dtypes the site does not serve. */
  missing: ModelDtype[];
  from: string;
}

export function siteModelRows(
  specs: readonly ModelSpec[],
  served: SiteModels,
  origins: ModelOrigins | null,
): SiteModelRow[] {
  const offered = offeredSpecs(specs, (id) => (served.get(id)?.dtypes.length ?? 0) > 0);
  return offered.map((spec) => {
    const dtypes = served.get(spec.id)?.dtypes ?? [];
    const origin = origins?.models[spec.id];
    const from =
      dtypes.length === 0
        ? (origin?.absent ?? 'not made on this machine yet')
        : origins
          ? describeOrigin(origin)
          : 'not recorded (no models-origin.json)';
    return {
      id: spec.id,
      label: spec.label,
      dtypes,
      missing: spec.dtypes.filter((d) => !dtypes.includes(d)),
      from,
    };
  });
}

/** One sentence for what the site lacks, or null when it has every model in every dtype. */
export function lackingSentence(rows: readonly SiteModelRow[]): string | null {
  const lacking = rows.filter((r) => r.missing.length > 0);
  if (lacking.length === 0) return null;
  const parts = lacking.map((r) =>
    r.dtypes.length === 0 ? r.label : `${r.label} ${r.missing.join(' + ')}`,
  );
  return `This site lacks ${parts.join(', ')}. Where the machine reaches PyPI (and the Hub, for bge-small), ${ADD_MODELS_COMMAND} adds them.`;
}
