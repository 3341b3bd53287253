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
  {
    id: 'paper-vs-ours',
    title: "The papers' numbers beside ours",
    sql: `SELECT paper_row, paper_value, round(ours_value, 3) AS ours,
       round(difference, 3) AS difference, unit, comparability, differs,
       benchmark, scope, system, k, paper_table || ' line ' || source_line AS paper_source
FROM paper_vs_ours
WHERE NOT cross_system
ORDER BY benchmark, scope, comparability, system`,
  },
];
