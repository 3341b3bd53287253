// A comparison's check of a picked pack labelled as a model this site serves: a seeded sample of
// the protocol's documents, embedded by that model (from the site's own pack where it holds them,
// else by the model in this browser), against the pack's vectors (vectors/pack-agreement.ts).
import type { EmbedderHub } from '../embed/embedder-hub.ts';
import type { Embedder } from '../embed/embedder.ts';
import { listModelSpecs, type ModelDtype } from '../embed/model-registry.ts';
import type { DeviceChoice } from '../embed/backend-choice.ts';
import { parseModelRef } from '../embed/model-ref.ts';
import type { Protocol } from '../protocol-kit/types.ts';
import {
  agreementNote,
  packAgreement,
  sampleTexts,
  AGREEMENT_SAMPLE,
} from '../vectors/pack-agreement.ts';
import type { PackModel } from '../vectors/pack-model.ts';
import type { SitePacks } from '../vectors/site-packs.ts';

export interface PackLabelDeps {
  hub: EmbedderHub;
  served: ReadonlyMap<string, readonly ModelDtype[]>;
  sitePacks?: SitePacks;
  device: DeviceChoice;
}

/** The labelled model's embedder for `texts`: the site's pack when it holds them all, else the model. */
async function labelledModel(
  deps: PackLabelDeps,
  id: string,
  dtype: ModelDtype,
  texts: readonly string[],
): Promise<Embedder> {
  const model = parseModelRef(id, { dtype, backend: deps.device }, 'cmp');
  const site = await deps.sitePacks?.vectorsOf(id, dtype, model.spec).catch(() => null);
  if (site && (await site.lookup(model.spec, 'document', texts)).every((v) => v !== undefined)) {
    return site.embedder(model.spec);
  }
  return deps.hub.embedder({ model });
}

/**
 * '' where the pack's vectors are its label's, or its label is not a model this site serves in
 * that dtype (nothing to check against); else the note the comparison shows beside it.
 */
export async function packLabelNote(
  pack: PackModel,
  protocol: Protocol,
  deps: PackLabelDeps,
  signal: AbortSignal,
): Promise<string> {
  const scope = pack.scopes.document;
  const spec = listModelSpecs().find((s) => s.id === scope?.model);
  if (!scope || !spec || !deps.served.get(spec.id)?.includes(scope.dtype)) return '';
  const docs = [...protocol.corpora.values()].flatMap((c) => c.docs);
  const sample = sampleTexts(docs, AGREEMENT_SAMPLE);
  const model = await labelledModel(deps, spec.id, scope.dtype, sample);
  const agreement = await packAgreement(pack.embedder, model, sample, { signal });
  return agreementNote(agreement, `${spec.label} ${scope.dtype}`);
}
