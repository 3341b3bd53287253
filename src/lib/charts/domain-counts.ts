import type { TopLevelSpec } from 'vega-lite';

export interface DomainCount {
  domain: string;
  tasks: number;
}

export function domainLabel(domain: string): string {
  return domain.replaceAll('_', ' ');
}

/** InMind tasks per domain, counted by SQL over `inmind_tasks`. */
export function domainCountsSpec(rows: DomainCount[]): TopLevelSpec {
  const total = rows.reduce((s, r) => s + r.tasks, 0);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    description: `InMind tasks per domain (${rows.length} domains, ${total} tasks), counted by SQL.`,
    data: { values: rows.map((r) => ({ ...r, label: domainLabel(r.domain) })) },
    transform: [{ calculate: "datum.label + ' | ' + datum.tasks", as: 'aria' }],
    width: 420,
    height: { step: 22 },
    mark: { type: 'bar', color: '#0072B2', tooltip: true },
    encoding: {
      y: { field: 'label', type: 'nominal', sort: '-x', title: null },
      x: { field: 'tasks', type: 'quantitative', title: 'Tasks' },
      description: { field: 'aria', type: 'nominal' },
      tooltip: [
        { field: 'label', title: 'Domain' },
        { field: 'tasks', title: 'Tasks', type: 'quantitative' },
      ],
    },
    config: { font: 'system-ui, sans-serif' },
  };
}
