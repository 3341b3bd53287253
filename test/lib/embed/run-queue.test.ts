import { describe, expect, it } from 'vitest';
import { RunQueue } from '../../../src/lib/embed/run-queue.ts';

const tick = (ms = 1) => new Promise((r) => setTimeout(r, ms));

describe('RunQueue', () => {
  it('runs one task at a time, in the order asked, past failures', async () => {
    const queue = new RunQueue();
    const log: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        log.push(`start ${name}`);
        await tick();
        log.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      };
    const a = queue.run(task('a'));
    const b = queue.run(task('b', true));
    const c = queue.run(task('c'));
    expect(queue.pending).toBe(3);
    await expect(a).resolves.toBe('a');
    await expect(b).rejects.toThrow('b');
    await expect(c).resolves.toBe('c');
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    await queue.idle();
    expect(queue.pending).toBe(0);
  });

  it('never starts a task whose signal aborted while it waited', async () => {
    const queue = new RunQueue();
    let started = false;
    const first = queue.run(() => tick(5));
    const controller = new AbortController();
    const second = queue.run(async () => {
      started = true;
    }, controller.signal);
    controller.abort();
    await first;
    await expect(second).rejects.toMatchObject({ name: 'AbortError' });
    expect(started).toBe(false);
  });
});
