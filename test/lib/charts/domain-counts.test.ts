import { describe, expect, it } from 'vitest';
import { domainCountsSpec, domainLabel } from '../../../src/lib/charts/domain-counts.ts';
import { vegaWarnings } from './chart-harness.ts';

describe('tasks per domain', () => {
  it('draws before its rows arrive without an "Infinite extent" warning', async () => {
    expect(await vegaWarnings(domainCountsSpec([]))).toEqual([]);
  });

  it('scales to the largest domain, from zero', async () => {
    const spec = domainCountsSpec([
      { domain: 'health_medical', tasks: 31 },
      { domain: 'travel', tasks: 12 },
    ]);
    expect(JSON.stringify(spec)).toContain('"scale":{"domain":[0,31]}');
    expect(await vegaWarnings(spec)).toEqual([]);
    expect(domainLabel('health_medical')).toBe('health medical');
  });
});
