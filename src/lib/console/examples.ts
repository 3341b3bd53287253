// Queries across benchmarks for the console; each benchmark's own are in its folder (registry's consoleExamples).

export interface ExampleQuery {
  id: string;
  title: string;
  sql: string;
}

export const CROSS_BENCHMARK_EXAMPLES: readonly ExampleQuery[] = [
  {
    id: 'turns-per-conversation',
    title: 'Turns and sessions per conversation',
    sql: `SELECT dataset, conv_id, count(*) AS turns, count(DISTINCT session) AS sessions
FROM turns
GROUP BY dataset, conv_id
ORDER BY dataset, conv_id`,
  },
  {
    id: 'released-numbers',
    title: 'Released numbers per paper and table',
    sql: `SELECT paper, "table", count(*) AS cells, min(source_line) AS first_line
FROM results
GROUP BY paper, "table"
ORDER BY paper, first_line`,
  },
];
