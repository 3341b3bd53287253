import { describe, expect, it } from 'vitest';
import { domainLabel } from '../../../src/lib/common/domain-label.ts';

describe('domainLabel', () => {
  it('prints a domain with spaces, once for every page', () => {
    expect(domainLabel('health_and_wellness')).toBe('health and wellness');
    expect(domainLabel('travel')).toBe('travel');
  });
});
