import { describe, expect, it } from 'vitest';
import { createStore, patch } from '../../../src/lib/common/store.ts';

describe('store', () => {
  it('calls a new listener at once with the value, then on every set in subscribe order', () => {
    const s = createStore(1);
    const seen: string[] = [];
    s.subscribe((v) => seen.push(`a${v}`));
    s.subscribe((v) => seen.push(`b${v}`));
    s.set(2);
    expect(seen).toEqual(['a1', 'b1', 'a2', 'b2']);
    expect(s.get()).toBe(2);
  });

  it('notifies on every set, the same value included', () => {
    const value = { n: 1 };
    const s = createStore(value);
    const seen: { n: number }[] = [];
    s.subscribe((v) => seen.push(v));
    s.set(value);
    s.set(value);
    expect(seen).toEqual([value, value, value]);
  });

  it('stops calling a listener once it unsubscribed', () => {
    const s = createStore('a');
    const seen: string[] = [];
    const stop = s.subscribe((v) => seen.push(v));
    s.set('b');
    stop();
    s.set('c');
    expect(seen).toEqual(['a', 'b']);
    expect(s.get()).toBe('c');
  });

  it('updates from the value it holds', () => {
    const s = createStore(2);
    s.update((v) => v * 3);
    expect(s.get()).toBe(6);
  });

  it('merges a patch into an object value, as a new object', () => {
    const first = { phase: 'idle', count: 0 };
    const s = createStore(first);
    patch(s, { count: 3 });
    expect(s.get()).toEqual({ phase: 'idle', count: 3 });
    expect(first).toEqual({ phase: 'idle', count: 0 });
  });

  it('ignores sets once closed and calls no listener after', () => {
    const s = createStore(0);
    const seen: number[] = [];
    s.subscribe((v) => seen.push(v));
    s.close();
    s.set(1);
    s.update((v) => v + 5);
    expect(seen).toEqual([0]);
    expect(s.get()).toBe(0);
  });

  it('keeps the Svelte store contract: subscribe returns a function that unsubscribes', () => {
    const s = createStore(0);
    const unsubscribe = s.subscribe(() => undefined);
    expect(typeof unsubscribe).toBe('function');
    expect(unsubscribe()).toBeUndefined();
  });
});
