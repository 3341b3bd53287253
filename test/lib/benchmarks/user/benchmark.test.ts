import { describe, expect, it } from 'vitest';
import {
  isUserBenchmarkId,
  userProtocolRun,
} from '../../../../src/lib/benchmarks/user/benchmark.ts';
import { isBenchmarkId, protocolRun } from '../../../../src/lib/benchmarks/registry.ts';
import { readReproduceParams } from '../../../../src/lib/protocols/params.ts';
import { tableNameProblem, userTableName } from '../../../../src/lib/userdata/table-name.ts';

describe('a reader’s benchmark in the registry', () => {
  it('is named by a user table, never by a paper protocol', () => {
    expect(isUserBenchmarkId('user_own_benchmark')).toBe(true);
    expect(isUserBenchmarkId('inmind')).toBe(false);
    expect(isUserBenchmarkId('user_<script>')).toBe(false);
    expect(isBenchmarkId('user_own_benchmark')).toBe(false);
  });

  it('takes exactly the names a user table may have', () => {
    const names = ['user_a', 'user_', 'user_A', `user_${'x'.repeat(48)}`, `user_${'x'.repeat(49)}`];
    for (const name of [...names, 'users_a', 'user_a-b', userTableName('My File (v2).jsonl')]) {
      expect(isUserBenchmarkId(name), name).toBe(tableNameProblem(name) === null);
    }
  });

  it('runs on BM25 by default and has no paper to compare with', () => {
    const run = userProtocolRun('user_x');
    expect(run.defaults.retriever).toBe('bm25');
    expect(run.paper).toBeUndefined();
    expect(protocolRun('user_x')?.defaults.source).toBe('your benchmark user_x');
    expect(protocolRun('nope')).toBeUndefined();
  });

  it('keeps a user table in the URL and names what it ignores', () => {
    expect(readReproduceParams({ bench: 'user_x' }).spec.benchmark).toBe('user_x');
    const bad = readReproduceParams({ bench: 'user_<b>' });
    expect([bad.spec.benchmark, bad.unknownBench]).toEqual(['inmind', 'user_<b>']);
    expect(readReproduceParams({}).unknownBench).toBeNull();
  });
});
