import { describe, expect, it } from 'vitest';
import { optionSlot } from '../../../src/lib/benchmarks/option-slot.ts';
import { DEFAULT_SPEC } from '../../../src/lib/protocols/build.ts';

describe('optionSlot', () => {
  const slot = optionSlot('depth', ['shallow', 'deep'] as const, 'shallow');

  it('keeps the value in spec.options under its key, leaving the rest', () => {
    const spec = slot.set({ ...DEFAULT_SPEC, options: { other: 'x' } }, 'deep');
    expect(spec.options).toEqual({ other: 'x', depth: 'deep' });
    expect(slot.get(spec)).toBe('deep');
    expect(spec.inmind).toBe(DEFAULT_SPEC.inmind);
  });

  it('reads an absent or unknown value as its fallback', () => {
    expect(slot.get(DEFAULT_SPEC)).toBe('shallow');
    expect(slot.get({ ...DEFAULT_SPEC, options: { depth: 'abyss' } })).toBe('shallow');
  });
});
