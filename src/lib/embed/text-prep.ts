import type { ModelSpec, TextKind } from './model-registry.ts';

/** Applies the model's instruction prefix; e.g. bge prefixes queries but not documents. */
export function prepareTexts(
  spec: Pick<ModelSpec, 'queryPrefix' | 'documentPrefix'>,
  texts: readonly string[],
  kind: TextKind,
): string[] {
  const prefix = kind === 'query' ? spec.queryPrefix : spec.documentPrefix;
  return texts.map((text) => prefix + text);
}
