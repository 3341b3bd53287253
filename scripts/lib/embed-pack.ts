// The CLI side of vector packs: embed a corpus with onnxruntime-node and write its pack.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { lmeBackgroundRows } from '../../src/lib/datasets/inmind.ts';
import { parseJsonlObjects } from '../../src/lib/datasets/jsonl.ts';
import type { TextKind } from '../../src/lib/embed/model-registry.ts';
import type { ModelRef } from '../../src/lib/embed/model-ref.ts';
import { createNodeEmbedder } from '../../src/lib/embed/node-embedder.ts';
import { sha256Hex } from '../../src/lib/common/sha256.ts';
import { packRowsOf, uniqueRows, writeVectorPack } from '../../src/lib/vectors/pack.ts';

export type CorpusSource =
  { kind: 'lme-background'; dataRoot: string } | { kind: 'jsonl'; file: string; field: string };

/** The texts of a corpus; the LME-s background is the Embeddings page's own corpus. */
export async function corpusTexts(source: CorpusSource): Promise<string[]> {
  if (source.kind === 'lme-background') {
    const file = path.join(source.dataRoot, 'inmind/lme_s_background.jsonl');
    return lmeBackgroundRows(await readFile(file, 'utf8'), 'inmind/lme_s_background.jsonl').map(
      (r) => r.content,
    );
  }
  const records = parseJsonlObjects(await readFile(source.file, 'utf8'), source.file);
  return records.map(({ line, value }) => {
    const v = value[source.field];
    if (typeof v !== 'string')
      throw new Error(`${source.file}:${line}: "${source.field}" is not a string`);
    return v;
  });
}

export interface PackOptions {
  model: ModelRef;
  kind: TextKind;
  texts: readonly string[];
  modelRoot?: string;
}

export async function embedPack(
  options: PackOptions,
): Promise<{ bytes: ArrayBuffer; rows: number; dim: number }> {
  const distinct = [...new Set(options.texts)];
  const { model } = options;
  const embedder = await createNodeEmbedder({ model, modelRoot: options.modelRoot });
  try {
    const matrix = await embedder.embed(distinct, { kind: options.kind });
    const hashes = await Promise.all(distinct.map(sha256Hex));
    const rows = uniqueRows(packRowsOf(model, options.kind, hashes, matrix));
    return { bytes: writeVectorPack(rows), rows: rows.length, dim: matrix.dim };
  } finally {
    await embedder.dispose();
  }
}
