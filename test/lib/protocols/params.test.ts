import { describe, expect, it } from 'vitest';
import type { ModelDtype } from '../../../src/lib/embed/model-registry.ts';
import {
  RUN_VIEW_RESET,
  pickedRetriever,
  readReproduceParams,
  readRetrieverParam,
  retrieverOptions,
  retrieverParam,
  runControlChange,
  runDtype,
  viewDtype,
} from '../../../src/lib/protocols/params.ts';

describe('runControlChange', () => {
  it("clears the old run's brush, picked memory, drill-down and series on any run control", () => {
    for (const key of ['bench', 'ret', 'mode', 'target', 'bg', 'prefix', 'device']) {
      const change = runControlChange(key, 'x');
      expect(change, key).toMatchObject({
        brush: null,
        bseries: null,
        mem: null,
        q: null,
        series: null,
      });
      expect(change[key]).toBe('x');
    }
  });

  it('starts a new benchmark on its paper defaults, and keeps them on other changes', () => {
    expect(runControlChange('bench', 'locomo')).toEqual({
      ...RUN_VIEW_RESET,
      ret: null,
      target: null,
      prefix: null,
      mode: null,
      find: null,
      near: null,
      bench: 'locomo',
    });
    // The map's search and typed query stay for another model of the same memories.
    expect(runControlChange('ret', 'minilm')).toEqual({ ...RUN_VIEW_RESET, ret: 'minilm' });
  });

  it('leaves a view with no brush and no picked memory once applied', () => {
    const before = { bench: 'inmind', brush: '0.2,0.4', bseries: 'naive', mem: 'm:3', q: '112' };
    const after = { ...before, ...runControlChange('bench', 'locomo') };
    const kept = Object.fromEntries(
      Object.entries(after).filter((e): e is [string, string] => e[1] !== null),
    );
    expect(kept).toEqual({ bench: 'locomo' });
    expect(readReproduceParams(kept).spec.benchmark).toBe('locomo');
  });
});

describe('ret: a retriever and its dtype', () => {
  it('reads bm25, ID and ID:DTYPE, in the syntax the comparison and the CLI use', () => {
    expect(readRetrieverParam('bm25')).toEqual({ retriever: 'bm25', dtype: null });
    expect(readRetrieverParam('minilm')).toEqual({ retriever: 'minilm', dtype: null });
    expect(readRetrieverParam('minilm:q8')).toEqual({ retriever: 'minilm', dtype: 'q8' });
    const view = readReproduceParams({ bench: 'inmind-figure4', ret: 'minilm:q8' });
    expect(view).toMatchObject({ retriever: 'minilm', dtype: 'q8', badRetriever: null });
    expect(retrieverParam(view)).toBe('minilm:q8');
    expect(retrieverParam(readReproduceParams({ ret: 'minilm' }))).toBe('minilm');
  });

  it('names what is wrong with junk, and runs the paper’s retriever instead', () => {
    expect(readRetrieverParam('minilm:zz')).toEqual({
      error: 'ret: "minilm:zz": dtype must be one of fp32, fp16, q8, q4',
    });
    expect(readRetrieverParam('gpt')).toMatchObject({ error: /Unknown model "gpt"/ });
    expect(readRetrieverParam('minilm:q8@webgpu')).toMatchObject({ error: /device is its own/ });
    expect(readRetrieverParam('minilm+hub')).toMatchObject({ error: /expected bm25, ID/ });
    const view = readReproduceParams({ bench: 'inmind-figure4', ret: 'minilm:zz' });
    expect(view).toMatchObject({ retriever: 'bge-small', dtype: null });
    expect(view.badRetriever).toMatch(/minilm:zz.*dtype must be one of/);
    expect(readReproduceParams({ bench: 'inmind' }).badRetriever).toBeNull();
  });
});

describe('viewDtype', () => {
  const served = new Map<string, readonly ModelDtype[]>([
    ['minilm', ['fp32', 'q8']],
    ['bge-small', []],
  ]);
  it('none for BM25; the served dtype asked for, fp32 by default, null where the site lacks it', () => {
    expect(viewDtype({ retriever: 'bm25', dtype: null }, served)).toBeUndefined();
    expect(viewDtype({ retriever: 'minilm', dtype: 'q8' }, served)).toBe('q8');
    expect(viewDtype({ retriever: 'minilm', dtype: null }, served)).toBe('fp32');
    expect(viewDtype({ retriever: 'minilm', dtype: 'q4' }, served)).toBeNull();
    expect(viewDtype({ retriever: 'bge-small', dtype: null }, served)).toBeNull();
  });
  it("what the view asks for while the site's list is not known", () => {
    expect(viewDtype({ retriever: 'minilm', dtype: 'q8' }, new Map())).toBe('q8');
    expect(viewDtype({ retriever: 'minilm', dtype: null }, new Map())).toBeUndefined();
  });
});

describe('runDtype', () => {
  it('runs the dtype asked for only where served; asked none, fp32 first', () => {
    expect(runDtype(['fp32', 'q8'], 'q8')).toBe('q8');
    expect(runDtype(['fp32'], 'q8')).toBeNull();
    expect(runDtype(['fp32', 'q8'], null)).toBe('fp32');
    expect(runDtype(['q8'], null)).toBe('q8');
    expect(runDtype([], null)).toBeNull();
  });
});

describe('the retriever picker', () => {
  const served = new Map<string, readonly ModelDtype[]>([
    ['minilm', ['fp32', 'q8']],
    ['bge-small', []],
    ['tiny-bert', ['fp32']],
  ]);

  it('offers each dtype the site serves, and a model it lacks once, marked', () => {
    const options = retrieverOptions('inmind-figure4', served);
    const values = options.map((o) => o.value);
    expect(values).toEqual(expect.arrayContaining(['bm25', 'minilm:fp32', 'minilm:q8']));
    expect(options.find((o) => o.value === 'minilm:q8')?.label).toBe(
      "all-MiniLM-L6-v2 (q8) (MemLens's own)",
    );
    expect(options.find((o) => o.value === 'bge-small')?.label).toMatch(
      /\(paper\) — not on this site$/,
    );
    // Before the site's list is known: each model once, by its id.
    expect(retrieverOptions('inmind', new Map()).map((o) => o.value)).toContain('minilm');
  });

  it('shows the view’s choice, adding a dtype the site lacks as not on it', () => {
    const view = (ret: string) => readReproduceParams({ bench: 'inmind-figure4', ret });
    expect(pickedRetriever(view('minilm'), served).value).toBe('minilm:fp32');
    expect(pickedRetriever(view('minilm:q8'), served).value).toBe('minilm:q8');
    expect(pickedRetriever(view('bm25'), served).value).toBe('bm25');
    const lacking = pickedRetriever(view('bge-small:q8'), served);
    expect(lacking.value).toBe('bge-small:q8');
    expect(lacking.options.at(-1)?.label).toMatch(/\(q8\) — not on this site$/);
    expect(pickedRetriever(view('bge-small'), served).value).toBe('bge-small');
  });
});
