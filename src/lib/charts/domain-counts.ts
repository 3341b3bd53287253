import type { TopLevelSpec } from 'vega-lite';
import { domainLabel } from '../common/domain-label.ts';
import { CHART_CONFIG, FULL_WIDTH, OKABE_ITO, VL_SCHEMA } from './chart-kit.ts';

export interface DomainCount {
  domain: string;
  tasks: number;
}

export { domainLabel };

/** InMind tasks per domain, counted by SQL over `inmind_tasks`. */
export function domainCountsSpec(rows: DomainCount[]): TopLevelSpec {
  const total = rows.reduce((s, r) => s + r.tasks, 0);
  return {
    $schema: VL_SCHEMA,
    description: `InMind tasks per domain (${rows.length} domains, ${total} tasks), counted by SQL.`,
    data: { values: rows.map((r) => ({ ...r, label: domainLabel(r.domain) })) },
    transform: [{ calculate: "datum.label + ' | ' + datum.tasks", as: 'aria' }],
    ...FULL_WIDTH,
    // A fixed height (not a step): Vega-Lite warns when a step meets the card-width fit.
    height: Math.max(1, rows.length) * 22,
    mark: { type: 'bar', color: OKABE_ITO.blue, tooltip: true },
    encoding: {
      y: { field: 'label', type: 'nominal', sort: '-x', title: null },
      // The domain from the rows: before they arrive (no rows) Vega would warn "Infinite extent"
      // for the stacked tasks_start / tasks_end.
      x: {
        field: 'tasks',
        type: 'quantitative',
        title: 'Tasks',
        scale: { domain: [0, Math.max(1, ...rows.map((r) => r.tasks))] },
      },
      description: { field: 'aria', type: 'nominal' },
      tooltip: [
        { field: 'label', title: 'Domain' },
        { field: 'tasks', title: 'Tasks', type: 'quantitative' },
      ],
    },
    config: CHART_CONFIG,
  };
}
