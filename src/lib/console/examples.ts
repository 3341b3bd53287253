// Queries that answer the papers' questions from the tables MemLens loads; the console lists them.

export interface ExampleQuery {
  id: string;
  title: string;
  sql: string;
}

export const EXAMPLE_QUERIES: readonly ExampleQuery[] = [
  {
    id: 'inmind-table1',
    title: 'InMind Table 1: recalled when asked, used when needed?',
    sql: `-- InMind Table 1, one row per system: naive recall, target recall, application
SELECT "row" AS system,
  max(value) FILTER (WHERE metric = 'naive') AS naive,
  max(value) FILTER (WHERE metric = 'target_recall') AS target_recall,
  max(value) FILTER (WHERE metric = 'application') AS application
FROM results_inmind
WHERE "table" = 'Table 1'
GROUP BY "row"
ORDER BY target_recall DESC NULLS LAST`,
  },
  {
    id: 'locomo-categories',
    title: 'LoCoMo: questions per category',
    sql: `-- LoCoMo's QA questions by category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial)
SELECT category, count(*) AS questions,
  round(avg(len(gold_ids)), 2) AS evidence_turns_per_question
FROM queries
WHERE dataset = 'locomo' AND style = 'question'
GROUP BY category
ORDER BY category`,
  },
  {
    id: 'turns-per-conversation',
    title: 'Turns and sessions per conversation',
    sql: `SELECT dataset, conv_id, count(*) AS turns, count(DISTINCT session) AS sessions
FROM turns
GROUP BY dataset, conv_id
ORDER BY dataset, conv_id`,
  },
  {
    id: 'inmind-domains',
    title: 'InMind tasks per domain',
    sql: `SELECT domain, count(*) AS tasks
FROM inmind_tasks
GROUP BY domain
ORDER BY tasks DESC, domain`,
  },
  {
    id: 'locomo-conv-styles',
    title: 'LoCoMo-Conv: the same question asked in each style',
    sql: `SELECT style, count(*) AS queries, count(DISTINCT conv_id) AS conversations
FROM queries
WHERE dataset = 'locomo-conv'
GROUP BY style
ORDER BY queries DESC`,
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
