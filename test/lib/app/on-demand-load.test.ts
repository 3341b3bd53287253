import { describe, expect, it } from 'vitest';
import { OnDemandLoad } from '../../../src/lib/app/on-demand-load.ts';

/** A load that records its targets and finishes when told. */
function recorder() {
  const targets: string[] = [];
  const finish: (() => void)[] = [];
  const load = new OnDemandLoad<string>((t) => {
    targets.push(t);
    return new Promise<void>((resolve) => finish.push(resolve));
  });
  return { load, targets, finish };
}

describe('OnDemandLoad', () => {
  it('runs nothing until asked, then once into the ready target', async () => {
    const { load, targets, finish } = recorder();
    await load.ready('db1');
    expect(targets).toEqual([]);
    expect(load.started).toBe(false);
    const asked = load.ask();
    expect(targets).toEqual(['db1']);
    finish[0]();
    await asked;
    await load.ask();
    expect(targets).toEqual(['db1']);
  });

  it('shares one run between asks made while it runs', () => {
    const { load, targets } = recorder();
    void load.ready('db1');
    const a = load.ask();
    const b = load.ask();
    expect(a).toBe(b);
    expect(targets).toEqual(['db1']);
  });

  it('an ask before the target is ready loads when it becomes ready', async () => {
    const { load, targets, finish } = recorder();
    await load.ask();
    expect(targets).toEqual([]);
    expect(load.wanted).toBe(true);
    const ready = load.ready('db1');
    expect(targets).toEqual(['db1']);
    finish[0]();
    await ready;
  });

  it('loads again into a new target once asked, without a new ask', () => {
    const { load, targets } = recorder();
    void load.ready('db1');
    void load.ask();
    load.reset();
    expect(load.started).toBe(false);
    void load.ready('db2');
    expect(targets).toEqual(['db1', 'db2']);
  });

  it('a reset before any ask leaves the new target unloaded', async () => {
    const { load, targets } = recorder();
    await load.ready('db1');
    load.reset();
    await load.ready('db2');
    expect(targets).toEqual([]);
    expect(load.wanted).toBe(false);
  });
});
