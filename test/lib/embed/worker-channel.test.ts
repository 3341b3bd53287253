import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkerChannel } from '../../../src/lib/embed/worker-channel.ts';
import type { FromWorker } from '../../../src/lib/embed/worker-protocol.ts';

class FakeWorker {
  onmessage: ((event: MessageEvent<FromWorker>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  posted: unknown[] = [];
  terminated = false;
  postMessage(message: unknown): void {
    this.posted.push(message);
  }
  terminate(): void {
    this.terminated = true;
  }
  reply(message: FromWorker): void {
    this.onmessage?.(new MessageEvent('message', { data: message }));
  }
}

function channelOn(fake: FakeWorker): WorkerChannel {
  // The fake implements the part of Worker the channel uses.
  return new WorkerChannel(fake as unknown as Worker);
}

describe('WorkerChannel: a worker that dies before it takes its lock', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    // Locks are never granted here: the worker "holds" them for ever.
    vi.stubGlobal('navigator', { locks: { request: () => new Promise(() => undefined) } });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('counts as dead when it never says held, failing what was pending', () => {
    const fake = new FakeWorker();
    const channel = channelOn(fake);
    const failures: string[] = [];
    channel.open(
      (id) => ({ type: 'embed', id, texts: ['a'] }),
      () => undefined,
      (m) => failures.push(m.type === 'error' ? m.message : m.type),
    );
    channel.watchLife(1_000);
    expect(fake.posted.some((m) => (m as { type: string }).type === 'hold')).toBe(true);
    vi.advanceTimersByTime(999);
    expect(failures).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(failures).toEqual(['the embedding worker stopped (closed or crashed)']);
    expect(fake.terminated).toBe(true);
    expect(channel.stopped).toBe(true);
  });

  it('a worker that says held in time is left alone', () => {
    const fake = new FakeWorker();
    const channel = channelOn(fake);
    channel.watchLife(1_000);
    fake.reply({ type: 'held', id: 0 });
    vi.advanceTimersByTime(5_000);
    expect(fake.terminated).toBe(false);
    expect(channel.stopped).toBe(false);
  });
});
