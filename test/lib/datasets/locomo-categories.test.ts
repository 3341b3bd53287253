import { describe, expect, it } from 'vitest';
import {
  LOCOMO_CATEGORY_NAMES,
  locomoCategoryLabel,
} from '../../../src/lib/datasets/locomo-categories.ts';

describe('LoCoMo categories', () => {
  it("uses the release's numbering, not the paper's order", () => {
    expect(LOCOMO_CATEGORY_NAMES[1]).toBe('multi-hop');
    expect(LOCOMO_CATEGORY_NAMES[4]).toBe('single-hop');
    expect(Object.isFrozen(LOCOMO_CATEGORY_NAMES)).toBe(true);
  });

  it('labels known, unknown and missing categories', () => {
    expect(locomoCategoryLabel(5)).toBe('category 5 · adversarial');
    expect(locomoCategoryLabel(9)).toBe('category 9');
    expect(locomoCategoryLabel(null)).toBe('category ?');
  });
});
