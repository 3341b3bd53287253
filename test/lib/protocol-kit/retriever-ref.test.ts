import { describe, expect, it } from 'vitest';
import { listModelSpecs, MODEL_DTYPES } from '../../../src/lib/embed/model-registry.ts';
import { parseModelRef } from '../../../src/lib/embed/model-ref.ts';
import {
  BM25_REF,
  formatRetrieverRef,
  parseRetrieverRef,
  registryRef,
  resolveRetrieverRef,
  type RetrieverRef,
} from '../../../src/lib/protocol-kit/retriever-ref.ts';
import { formatSubmissionRef } from '../../../src/lib/protocol-kit/submission-retriever.ts';

const COMMIT = 'c'.repeat(40);

/** A small seeded generator, so a failing case is the same on every machine. */
function seeded(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

/** Every kind of reference the grammar knows, drawn at random with its parts. */
function randomRef(draw: (n: number) => number): RetrieverRef {
  const pick = <T>(items: readonly T[]): T => items[draw(items.length)];
  const dtypeOrNull = () => pick([null, ...MODEL_DTYPES]);
  const name = () => pick(['a', 'my-model', 'x.y_z', 'B2']);
  const system = () => pick(['Ranked RAG', 'a,b', '100%', 'x:y']);
  switch (draw(7)) {
    case 0:
      return BM25_REF;
    case 1:
      return { id: pick(listModelSpecs()).id, dtype: dtypeOrNull() };
    case 2: {
      const brought = { kind: 'hub' as const, repo: `${name()}/${name()}`, revision: COMMIT };
      const dtype = dtypeOrNull();
      return { id: `hub:${brought.repo}@${COMMIT}`, dtype, brought: { ...brought, dtype } };
    }
    case 3: {
      const path = pick(['./m', 'models/tiny', '/abs/dir']);
      const dtype = dtypeOrNull();
      return { id: `onnx:${path}`, dtype, brought: { kind: 'onnx', path, dtype } };
    }
    case 4: {
      const path = pick(['a.parquet', 'out/p.parquet']);
      return { id: `pack:${path}`, dtype: null, brought: { kind: 'pack', path } };
    }
    case 5: {
      const submission = { kind: 'table' as const, table: 'user_run', system: system() };
      return {
        id: formatSubmissionRef(submission),
        dtype: null,
        submission,
      };
    }
    default: {
      const submission = {
        kind: 'file' as const,
        path: 'run.jsonl',
        system: pick([null, system()]),
      };
      return {
        id: formatSubmissionRef(submission),
        dtype: null,
        submission,
      };
    }
  }
}

describe('parseRetrieverRef and formatRetrieverRef', () => {
  it('give back every reference they write, of every kind', () => {
    const draw = seeded(35);
    const kinds = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const ref = randomRef(draw);
      const text = formatRetrieverRef(ref);
      const back = parseRetrieverRef(text);
      expect(back, text).toEqual(ref);
      expect(formatRetrieverRef(back)).toBe(text);
      kinds.add(ref.brought?.kind ?? ref.submission?.kind ?? ref.id);
    }
    expect(kinds.size).toBeGreaterThanOrEqual(6);
  });

  it('read the URL, picker and CLI forms as they are written today', () => {
    expect(parseRetrieverRef('bm25')).toEqual({ id: 'bm25', dtype: null });
    expect(parseRetrieverRef(' minilm:q8 ')).toEqual({ id: 'minilm', dtype: 'q8' });
    expect(parseRetrieverRef('submission:run.jsonl:Ranked%2C RAG').submission).toEqual({
      kind: 'file',
      path: 'run.jsonl',
      system: 'Ranked, RAG',
    });
    for (const text of ['bm25', 'minilm', 'bge-small:q8', `hub:a/b@${COMMIT}:q8`, 'onnx:/m:fp16']) {
      expect(formatRetrieverRef(parseRetrieverRef(text))).toBe(text);
    }
  });

  it('refuse every malformed text with a message that quotes it', () => {
    const bad = [
      '',
      '   ',
      ':',
      ':q8',
      'minilm:',
      'minilm:int3',
      'minilm:q8:x',
      'bm25:q8',
      'minilm@webgpu',
      'minilm+hub',
      '<img src=x>',
      'a b',
      'hub:me/m@main',
      'hub:me/m',
      `hub:../x@${COMMIT}`,
      'onnx:',
      'pack:',
      'sub:user_run',
      'sub:inmind_tasks:x',
      'sub:user_run:',
      'submission:',
    ];
    for (const text of bad) {
      let message = '';
      try {
        parseRetrieverRef(text);
      } catch (err) {
        message = err instanceof Error ? err.message : String(err);
      }
      expect(message, text).not.toBe('');
      expect(message, text).toContain(JSON.stringify(text.trim()).slice(1, -1));
    }
    expect(() => parseRetrieverRef('bm25:q8')).toThrow('retriever "bm25:q8": bm25 has no dtype');
    expect(() => parseRetrieverRef('minilm:zz', 'ret:')).toThrow(
      'ret: "minilm:zz": dtype must be one of fp32, fp16, q8, q4',
    );
    expect(() => parseRetrieverRef('a:q8:x')).toThrow(/expected ID or ID:DTYPE, or hub:/);
  });
});

describe('a single run’s retriever', () => {
  it('is BM25 or a registry model; a brought model or a submission is named and refused', () => {
    expect(registryRef(parseRetrieverRef('minilm:q8'))).toEqual({ id: 'minilm', dtype: 'q8' });
    expect(() => registryRef(parseRetrieverRef('pack:a.parquet'), 'ret:')).toThrow(
      'ret: "pack:a.parquet": expected bm25, ID or ID:DTYPE',
    );
    expect(() => registryRef(parseRetrieverRef('sub:user_run:A'))).toThrow(/expected bm25/);
  });

  it('resolves once into the model reference the hub and the worker take', () => {
    const minilm = registryRef(parseRetrieverRef('minilm'));
    expect(resolveRetrieverRef(minilm, { dtype: 'q8', backend: 'wasm' })).toEqual(
      parseModelRef('minilm:q8@wasm'),
    );
    const q8 = registryRef(parseRetrieverRef('minilm:q8'));
    expect(resolveRetrieverRef(q8, { dtype: 'fp32', backend: 'node' })).toEqual(
      parseModelRef('minilm:q8@node'),
    );
    expect(resolveRetrieverRef(BM25_REF, { dtype: 'q8' })).toBe('bm25');
    expect(() => resolveRetrieverRef({ id: 'nope', dtype: null }, {}, 'cmp')).toThrow(
      'cmp: Unknown model "nope"',
    );
    expect(() => resolveRetrieverRef({ id: 'tiny-bert', dtype: 'q8' }, {}, '--model')).toThrow(
      '--model: tiny-bert has no q8 weights (has: fp32)',
    );
  });
});
