import { describe, expect, it } from 'vitest';
import {
  PROXY_SOURCE,
  proxyChartRows,
  submissionProxySpec,
} from '../../../src/lib/charts/submission-proxy-chart.ts';

const released = [
  { label: 'BM25', value: 3.2, value_text: '3.2' },
  { label: 'Mem0 (MiniLM)', value: 12.8, value_text: '12.8' },
];
const proxies = [
  { system: 'RankedRAG', tasks: 4, inContext: 3, hits: { 1: 1, 5: 2, 10: 3 }, medianRank: 5 },
];

describe('the submission proxy chart', () => {
  it('puts the paper rows first and labels the submission rows proxy', () => {
    const rows = proxyChartRows(released, proxies);
    expect(rows.map((r) => [r.system, r.comparability, r.target_recall_pct])).toEqual([
      ['BM25', 'judged', 3.2],
      ['Mem0 (MiniLM)', 'judged', 12.8],
      ['RankedRAG (proxy)', 'proxy', 50],
    ]);
    expect(rows[2].value_text).toBe('50.0% (proxy, 2/4)');
    expect(rows[2].source).toBe(PROXY_SOURCE);
  });

  it('draws every row on one 0–100 % axis and writes "proxy" beside the submission bars', () => {
    const spec = submissionProxySpec(proxyChartRows(released, proxies));
    const text = JSON.stringify(spec);
    expect(text).toContain('"domain":[0,100]');
    expect(text).toContain(`"text":{"value":"proxy"}`);
    expect(text).toContain("datum.comparability === 'proxy'");
    expect(spec.description).toContain('2 systems as the paper judges them');
  });
});
