import { describe, expect, it } from 'vitest';
import {
  CompareRun,
  compareSourceLine,
  hubWaiting,
  readCompareRefs,
  type CompareRequest,
  type CompareResult,
} from '../../../src/lib/protocols/compare-run.ts';
import { readReproduceParams } from '../../../src/lib/protocols/params.ts';
import { compareRetrievers } from '../../../src/lib/protocol-kit/compare.ts';
import { compared } from '../protocol-kit/compare-fixture.ts';

const view = readReproduceParams({ bench: 'inmind' });
const two = readCompareRefs('bm25,minilm').refs;
const request = (refs = two, k: number | null = null): CompareRequest => ({
  view,
  refs,
  k,
  alpha: 0.05,
});
const result = (): CompareResult => {
  const retrievers = [compared('a', () => 1), compared('b', () => 2)];
  return { comparison: compareRetrievers(retrievers), retrievers, fromSite: {} };
};

describe('readCompareRefs', () => {
  it('keeps the refs that parse, in order, once each, and names the rest', () => {
    const { refs, rejected } = readCompareRefs('bm25,minilm:q8,nope,minilm:q8,minilm:int3,,minilm');
    expect(refs).toEqual([
      { id: 'bm25', dtype: null },
      { id: 'minilm', dtype: 'q8' },
      { id: 'minilm', dtype: null },
    ]);
    expect(rejected).toEqual(['nope', 'minilm:int3']);
    expect(readCompareRefs(undefined)).toEqual({ refs: [], rejected: [] });
  });

  it('takes a picked pack or folder and a Hub model at a commit; a path or a branch is named and left out', () => {
    const hub = `hub:a/b@${'c'.repeat(40)}`;
    const { refs, rejected } = readCompareRefs(
      `bm25,pack:p.parquet,onnx:my-tiny,onnx:./m,onnx:my-tiny:q8,${hub},${hub}:q8,hub:a/b@main`,
    );
    expect(refs.map((r) => r.id)).toEqual(['bm25', 'pack:p.parquet', 'onnx:my-tiny', hub, hub]);
    expect(refs.map((r) => r.dtype)).toEqual([null, null, null, null, 'q8']);
    expect(rejected).toEqual(['onnx:./m', 'onnx:my-tiny:q8', 'hub:a/b@main']);
  });
});

describe('hubWaiting', () => {
  it('names the Hub models whose files are not in the page, each dtype apart', () => {
    const hub = `hub:a/b@${'c'.repeat(40)}`;
    const { refs } = readCompareRefs(`bm25,${hub},${hub}:q8,onnx:my-tiny`);
    expect(hubWaiting(refs, [])).toEqual([hub, `${hub}:q8`]);
    expect(hubWaiting(refs, [{ id: hub }, { id: 'onnx:my-tiny' }])).toEqual([`${hub}:q8`]);
  });
});

describe('readCompareRefs with a submission', () => {
  it("takes a loaded table's system; a submission file is named and left out", () => {
    const { refs, rejected } = readCompareRefs(
      'bm25,sub:user_run:Ranked RAG,sub:user_run:a%2Cb,submission:run.jsonl,sub:inmind_tasks:x',
    );
    expect(refs.map((r) => r.id)).toEqual([
      'bm25',
      'sub:user_run:Ranked RAG',
      'sub:user_run:a%2Cb',
    ]);
    expect(refs[2].submission).toEqual({ kind: 'table', table: 'user_run', system: 'a,b' });
    expect(rejected).toEqual(['submission:run.jsonl', 'sub:inmind_tasks:x']);
  });
});

describe('CompareRun', () => {
  it('runs once per request, reports steps and ends idle with the comparison', async () => {
    let calls = 0;
    const run = new CompareRun<string>(async (_s, _r, _signal, onStep) => {
      calls++;
      onStep({ index: 0, total: 2, ref: 'bm25' });
      return result();
    });
    const phases: string[] = [];
    run.subscribe((s) => phases.push(s.phase));
    run.request('catalog', request());
    run.request('catalog', request());
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toBe(1);
    expect(run.getSnapshot()).toMatchObject({ phase: 'idle', step: null });
    expect(run.getSnapshot().comparison?.retrievers.map((r) => r.ref)).toEqual(['a', 'b']);
    expect(phases).toContain('running');
    run.dispose();
  });

  it('drops a superseded run, names a failure, and clears with fewer than two retrievers', async () => {
    const signals: AbortSignal[] = [];
    const run = new CompareRun<string>((_s, r, signal) => {
      signals.push(signal);
      return r.k === 3
        ? Promise.reject(new Error('minilm:q8: not on this site'))
        : new Promise(() => undefined);
    });
    run.request('catalog', request(two, 1));
    run.request('catalog', request(two, 3));
    expect(signals[0].aborted).toBe(true);
    await new Promise((r) => setTimeout(r, 0));
    expect(run.getSnapshot()).toMatchObject({
      phase: 'error',
      error: 'minilm:q8: not on this site',
    });
    run.request('catalog', request(two.slice(0, 1)));
    expect(run.getSnapshot().phase).toBe('idle');
    expect(run.getSnapshot().comparison).toBeNull();
    run.dispose();
  });

  it('cancels a run in progress and runs the same request again after', () => {
    let calls = 0;
    const run = new CompareRun<string>(() => {
      calls++;
      return new Promise(() => undefined);
    });
    run.request('catalog', request());
    run.cancel();
    expect(run.getSnapshot().phase).toBe('cancelled');
    run.request('catalog', request());
    expect(calls).toBe(2);
    run.dispose();
  });
});

describe('compareSourceLine', () => {
  it("names each retriever drawn from the site's vectors with its pack's digest, or says nothing", () => {
    expect(compareSourceLine({})).toBe('');
    const one = compareSourceLine({ 'minilm:fp32': 'ab'.repeat(32) });
    expect(one).toBe(
      "From the site's vectors, embedded when the site was built: minilm:fp32 (sha256 abababababab…, onnxruntime-node cpu); nothing of it was embedded in this browser.",
    );
    const two = compareSourceLine({ 'minilm:fp32': 'a'.repeat(64), 'minilm:q8': 'b'.repeat(64) });
    expect(two).toContain(
      'minilm:fp32 (sha256 aaaaaaaaaaaa…, onnxruntime-node cpu), minilm:q8 (sha256 bbbbbbbbbbbb…, onnxruntime-web wasm)',
    );
    expect(two).toContain('nothing of them');
  });
});

describe('CompareRun and the vectors choice', () => {
  it("runs again when the reader asks to recompute in the browser instead of the site's vectors", async () => {
    const seen: string[] = [];
    const run = new CompareRun<string>(async (_s, r) => {
      seen.push(r.view.vectors);
      return result();
    });
    run.request('catalog', request());
    run.request('catalog', {
      ...request(),
      view: readReproduceParams({ bench: 'inmind', vectors: 'browser' }),
    });
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual(['site', 'browser']);
  });
});
