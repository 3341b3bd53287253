import { INMIND_DEFAULTS, inmindProtocol, type InMindOptions } from './inmind.ts';
import {
  loadComposed,
  loadDialog,
  loadInMindInputs,
  loadLocomo,
  loadLocomoPlus,
  type ComposedFile,
  type DialogFile,
  type InputSources,
} from './inputs.ts';
import { locomoProtocol } from './locomo.ts';
import { locomoConvProtocol, type LocomoConvSource } from './locomo-conv.ts';
import { locomoPlusProtocol } from './locomo-plus.ts';
import type { BenchmarkId, Protocol } from './types.ts';

export interface ProtocolSpec {
  benchmark: BenchmarkId;
  inmind: InMindOptions;
  /** LoCoMo-Conv conversational styles (dialog, implicit, counterfactual): which file, if any. */
  dialog: DialogFile | null;
  /** LoCoMo-Conv composed queries: which file, if any. */
  composed: ComposedFile | null;
}

export const DEFAULT_SPEC: Readonly<ProtocolSpec> = Object.freeze({
  benchmark: 'inmind',
  inmind: INMIND_DEFAULTS,
  dialog: null,
  composed: null,
});

async function locomoConv(spec: ProtocolSpec, sources: InputSources): Promise<Protocol> {
  const locomo = await loadLocomo(sources.fetch);
  const composed = spec.composed ? (await loadComposed(sources.fetch, spec.composed)).queries : [];
  const list: LocomoConvSource[] = [
    {
      name: 'locomo10.json',
      turns: locomo.turns,
      evidence: locomo.queries,
      queries: [...locomo.queries, ...composed],
    },
  ];
  if (spec.dialog) {
    const dialog = await loadDialog(sources.fetch, spec.dialog);
    list.push({
      name: spec.dialog === 'full' ? 'locomo10_dialog.json' : 'locomo10_dialog.sample0.json',
      turns: dialog.turns,
      evidence: dialog.queries.filter((q) => q.style === 'question'),
      queries: dialog.queries.filter((q) => q.style !== 'question'),
    });
  }
  return locomoConvProtocol(list);
}

/** Loads what the benchmark needs and builds its protocol; the page and the CLI both call this. */
export async function buildProtocol(spec: ProtocolSpec, sources: InputSources): Promise<Protocol> {
  switch (spec.benchmark) {
    case 'inmind': {
      const { tasks, background } = await loadInMindInputs(sources.catalog);
      return inmindProtocol(tasks, background, spec.inmind);
    }
    case 'locomo': {
      const locomo = await loadLocomo(sources.fetch);
      return locomoProtocol(locomo.turns, locomo.queries);
    }
    case 'locomo-plus': {
      const [plus, locomo] = await Promise.all([
        loadLocomoPlus(sources.fetch),
        loadLocomo(sources.fetch),
      ]);
      return locomoPlusProtocol({
        items: plus.locomo_plus_items,
        cueTurns: plus.turns,
        triggers: plus.queries,
        locomoTurns: locomo.turns,
      });
    }
    case 'locomo-conv':
      return locomoConv(spec, sources);
  }
}
