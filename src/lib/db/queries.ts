import { quoteIdent, quoteString } from '../query/sql-text.ts';
import { ident, joinSql, sql, trusted, type SqlFragment } from '../query/sql.ts';
import { USER_META_DDL, USER_TABLES_META } from '../query/user-tables.ts';

/** Every SQL statement the app runs lives here, so pages and tests share one wording. */

export const RESULTS_SELECT = `SELECT paper, "table", "row", "column", CAST(value AS DOUBLE) AS value,
  value AS value_text, unit, note, section, CAST(source_line AS INTEGER) AS source_line,
  system, variant, metric, delta FROM {file}`;

export const INMIND_TABLE1_SQL = `SELECT "row", system, variant, metric, "column" AS metric_label,
  value, value_text, unit, paper, "table", section, source_line, note,
  regexp_extract(note, 'group: ([^;]+)', 1) AS "group",
  CASE WHEN regexp_extract(note, 'group: ([^;]+)', 1) = 'Naive RAG' THEN "row"
       ELSE system || ' (' || variant || ')' END AS label
FROM results
WHERE paper = 'inmind' AND "table" = 'Table 1' AND metric IN ('naive', 'target_recall', 'application')
ORDER BY source_line, CASE metric WHEN 'naive' THEN 0 WHEN 'target_recall' THEN 1 ELSE 2 END`;

/** Paper numbers the Reproduce page sets beside its own: `where` is the registry's condition. */
export function reproducePaperSql(where: string): string {
  return `SELECT DISTINCT paper, "table", "row", "column", value, value_text, unit,
  system, variant, metric, section, source_line
FROM results
WHERE ${where}
ORDER BY paper, source_line, metric, variant`;
}

/** InMind tasks in file order with the fields the Naive RAG protocol reads. */
export const REPRODUCE_INMIND_TASKS_SQL = `SELECT task_id, domain, user_message, assistant_message,
  naive_query, query FROM inmind_tasks ORDER BY task_id`;

/** Background turns in file order: sessions by first appearance, turns by index. */
export const REPRODUCE_LME_BACKGROUND_SQL = `SELECT id, raw_content, content FROM lme_background
ORDER BY session_index, turn_index`;

/* Charts over `results`: each query returns exactly the rows its chart draws, one mark per row. */

const RESULT_FIELDS = `"row", "column", system, variant, metric, value, value_text, unit, delta,
  paper, "table", section, source_line, note`;

const T1_GROUP = `regexp_extract(note, 'group: ([^;]+)', 1)`;
const T1_LABEL = `CASE WHEN system = 'Backbone' THEN 'Backbone in context'
       WHEN ${T1_GROUP} = 'Naive RAG' THEN "row"
       ELSE system || ' (' || variant || ')' END`;

/** 'both' keeps every memory system; otherwise only those built on that embedding (baselines always). */
function inmindEmbeddingFilter(embedding: string): string {
  if (embedding === 'both') return '';
  return ` AND (system = 'Backbone' OR ${T1_GROUP} = 'Naive RAG' OR variant = ${quoteString(embedding)})`;
}

/** Table 1 scores: bars per system and metric, then the backbone rows (application first) as lines. */
export function inmindTable1ScoresSql(embedding = 'both'): string {
  return `SELECT ${T1_LABEL} AS label, ${T1_GROUP} AS "group", "column" AS metric_label, ${RESULT_FIELDS}
FROM results
WHERE paper = 'inmind' AND "table" = 'Table 1'
  AND metric IN ('naive', 'target_recall', 'application')${inmindEmbeddingFilter(embedding)}
ORDER BY system = 'Backbone', source_line,
  list_position(CASE WHEN system = 'Backbone' THEN ['application', 'target_recall']
                     ELSE ['naive', 'target_recall', 'application'] END, metric)`;
}

export function inmindTable1DeltasSql(embedding = 'both'): string {
  return `SELECT ${T1_LABEL} AS label, ${T1_GROUP} AS "group",
  CASE metric WHEN 'delta_recall_naive' THEN 'Δ Recall − Naive'
              WHEN 'delta_app_recall' THEN 'Δ Application − Recall'
              ELSE 'Δ Application − Naive' END AS metric_label,
  ${RESULT_FIELDS}
FROM results
WHERE paper = 'inmind' AND "table" = 'Table 1'
  AND metric IN ('delta_recall_naive', 'delta_app_recall', 'delta_app_naive')${inmindEmbeddingFilter(embedding)}
ORDER BY source_line, list_position(['delta_recall_naive', 'delta_app_recall', 'delta_app_naive'], metric)`;
}

export const INMIND_TABLE2_SQL = `SELECT "row" AS label,
  CASE metric WHEN 'naive' THEN 'Naive' WHEN 'application' THEN 'Indirect'
              ELSE 'Δ Indirect − Backbone' END AS metric_label,
  CASE WHEN metric = 'delta_indirect_backbone' THEN 'delta' ELSE 'score' END AS panel,
  ${RESULT_FIELDS}
FROM results
WHERE paper = 'inmind' AND "table" = 'Table 2'
ORDER BY source_line, list_position(['naive', 'application', 'delta_indirect_backbone'], metric)`;

const MEMUSE_CONDITIONS = `['Summary', 'LC-10', 'LC-50', 'LC-100', 'RAG-10', 'RAG-50', 'RAG-100']`;

/** The text prints no Figure 1 numbers; its caption points to Table 18, whose rows these are. */
export const MEMUSE_FIGURE1_SQL = `SELECT "row" AS label, system AS condition, variant AS model,
  "column" AS metric_label, ${RESULT_FIELDS}
FROM results
WHERE paper = 'memuse' AND "table" = 'Figure 1'
ORDER BY list_position(${MEMUSE_CONDITIONS}, system), list_position(['direct_qa', 'natural_integration'], metric)`;

/** Table 13 body: capacity measures per condition, and satisfaction z with its SE (centred on z). */
export const MEMUSE_TABLE13_SQL = `WITH t AS (
  SELECT * FROM results WHERE paper = 'memuse' AND "table" = 'Table 13' AND "row" <> '(caption)'
)
SELECT t.system AS condition,
  CASE t.metric WHEN 'existing_qa_acc' THEN 'Existing QA accuracy'
                WHEN 'direct_qa' THEN 'Direct QA'
                WHEN 'reference' THEN 'Reference'
                WHEN 'natural_integration' THEN 'Natural Integration'
                WHEN 'satisfaction_z' THEN 'Satisfaction (z)'
                ELSE 'Satisfaction ± SE' END AS metric_label,
  CASE WHEN t.metric LIKE 'satisfaction%' THEN 'satisfaction' ELSE 'capacity' END AS panel,
  z.value AS center,
  t."row", t."column", t.system, t.variant, t.metric, t.value, t.value_text, t.unit, t.delta,
  t.paper, t."table", t.section, t.source_line, t.note
FROM t LEFT JOIN t z ON z.system = t.system AND z.metric = 'satisfaction_z'
ORDER BY list_position(${MEMUSE_CONDITIONS}, t.system),
  list_position(['existing_qa_acc', 'direct_qa', 'reference', 'natural_integration', 'satisfaction_z', 'satisfaction_z_se'], t.metric)`;

export const MEMUSE_TABLE14_SQL = `SELECT system AS condition, variant AS benchmark, ${RESULT_FIELDS}
FROM results
WHERE paper = 'memuse' AND "table" = 'Table 14'
ORDER BY list_position(${MEMUSE_CONDITIONS}, system), list_position(['LUFY', 'LoCoMo', 'RealTalk', 'Avg.'], variant)`;

const UTILMEM_BOUND = `CASE WHEN metric LIKE '%range_min' THEN 'range lower'
       WHEN metric LIKE '%range_max' THEN 'range upper' ELSE 'value' END`;

export const UTILMEM_SYSTEMS_SQL = `SELECT "row" AS label, upper(split_part(metric, '_', 1)) AS measure,
  ${UTILMEM_BOUND} AS bound, ${RESULT_FIELDS}
FROM results
WHERE paper = 'utilmem' AND "table" = 'Summary: §5.1 system results'
ORDER BY source_line, "row", metric LIKE 'dr%', value`;

/** Strong noise at k = 40: NR and DR per backbone, and the recall@k they share (a fraction, shown as %). */
export const UTILMEM_NOISE_K40_SQL = `SELECT CASE WHEN system = '' THEN 'All three backbones' ELSE system END AS label,
  CASE metric WHEN 'recall_at_k' THEN 'recall@k' ELSE upper(metric) END AS measure,
  CASE WHEN unit = 'fraction' THEN value * 100 ELSE value END AS pct,
  ${RESULT_FIELDS}
FROM results
WHERE paper = 'utilmem' AND variant = 'strong noise, k=40'
ORDER BY metric = 'recall_at_k', list_position(['Qwen3-30B', 'Qwen3-235B', 'Qwen3-Max'], system), metric DESC`;

/** What the summary prints about the NR-vs-k curve under strong noise: positions on the k axis. */
export const UTILMEM_NOISE_K_SQL = `SELECT CASE WHEN metric = 'k75' THEN system ELSE "row" END AS label,
  CASE metric WHEN 'k75' THEN 'k75%'
              WHEN 'k' THEN 'NR and DR reported at'
              WHEN 'saturation_k' THEN 'loss saturates after'
              ELSE 'marginal loss peaks within' END AS marker,
  ${RESULT_FIELDS}
FROM results
WHERE paper = 'utilmem' AND "table" = 'Summary: §5.3 noise sensitivity' AND variant = 'strong noise'
ORDER BY metric <> 'k75', value`;

/** A home-overview candidate: rows of `results`, the number each gives and whose it is. */
export interface OverviewCandidate {
  side: 'asked' | 'used';
  measure: string;
  /** SQL expression: the row's number in percent. */
  pct: string;
  /** SQL expression: the system (and setting) the number is for. */
  who: string;
  /** SQL condition over `results`. */
  where: string;
}

/** One paper's candidates for the home overview. */
export interface OverviewPart {
  paper: string;
  label: string;
  candidates: readonly OverviewCandidate[];
}

function overviewCandidateSql(c: OverviewCandidate): string {
  return `SELECT ${quoteString(c.side)} AS side, ${quoteString(c.measure)} AS measure, ${c.pct} AS pct,
    ${c.who} AS who, *
  FROM results WHERE ${c.where}`;
}

/**
 * Home overview: per paper, the best number where the memory is asked for directly and the best
 * where the conversation needs it without asking; memory systems only (no backbone, oracle, floor).
 * `parts` come from the benchmark registry, in its order; their SQL is written there, not by users.
 */
export function overviewSql(parts: readonly OverviewPart[]): string {
  const candidates = parts
    .flatMap((p) => p.candidates.map(overviewCandidateSql))
    .join('\n  UNION ALL\n');
  const labels = parts.map((p) => `WHEN ${quoteString(p.paper)} THEN ${quoteString(p.label)}`);
  const order = parts.map((p) => quoteString(p.paper)).join(', ');
  return `WITH candidates AS (
  ${candidates}
), ranked AS (
  SELECT *, row_number() OVER (PARTITION BY paper, side ORDER BY pct DESC, source_line, who) AS rank
  FROM candidates
)
SELECT CASE paper ${labels.join(' ')} END AS paper_label,
  CASE side WHEN 'asked' THEN 'Recall (asked for, or retrieved)'
            ELSE 'Use (needed, not asked for)' END AS side_label,
  side, measure, round(pct, 1) AS pct, who, ${RESULT_FIELDS}
FROM ranked WHERE rank = 1
ORDER BY list_position([${order}], paper), side`;
}

// Conversation viewer, query explorer and readers' own data (issue 6).

export type UserColumnType = 'VARCHAR' | 'INTEGER' | 'BIGINT' | 'VARCHAR[]';
export interface UserColumn {
  name: string;
  type: UserColumnType;
}
export type UserCell = string | number | readonly string[] | null;

export interface UserTableMeta {
  name: string;
  file: string;
  kind: string;
  format: string;
  rows: number;
  mapping: string;
}

export function createUserStagingSql(table: string, columns: readonly UserColumn[]): string {
  const defs = columns.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ');
  return `CREATE TABLE ${quoteIdent(table)} (${defs})`;
}

/** A text too long to bind in one statement, staged piecewise in `table` under `ref`. */
export interface StagedText {
  readonly staged: { table: string; ref: number };
}

export type InsertCell = UserCell | StagedText;

function isStaged(value: InsertCell): value is StagedText {
  return typeof value === 'object' && value !== null && 'staged' in value;
}

/** The piece table long texts are staged in, and one piece of one text. */
export function createPiecesSql(table: string): string {
  return `CREATE TABLE ${quoteIdent(table)} (ref INTEGER, k INTEGER, piece VARCHAR)`;
}

export function insertPiece(table: string, ref: number, k: number, piece: string): SqlFragment {
  return sql`INSERT INTO ${ident(table)} VALUES (${ref}, ${k}, ${piece})`;
}

function cellSql(value: InsertCell): SqlFragment {
  if (isStaged(value)) {
    const { table, ref } = value.staged;
    return sql`(SELECT string_agg(piece, '' ORDER BY k) FROM ${ident(table)} WHERE ref = ${ref})`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new Error(`not a finite number: ${value}`);
  }
  if (value === null || typeof value === 'number' || typeof value === 'string')
    return sql`${value}`;
  // A list binds one parameter per element; an empty one still has its type.
  return value.length === 0 ? sql`CAST([] AS VARCHAR[])` : sql`CAST([${value}] AS VARCHAR[])`;
}

/** One INSERT of many rows, every cell a bound parameter (file text never becomes SQL text). */
export function insertUserRows(
  table: string,
  rows: readonly (readonly InsertCell[])[],
): SqlFragment {
  const values = joinSql(
    rows.map((r) => sql`(${joinSql(r.map(cellSql), ', ')})`),
    ',\n',
  );
  return sql`INSERT INTO ${ident(table)} VALUES ${values}`;
}

/** Swaps the staged table in and records it; run in order inside one transaction. */
export function swapUserTableStatements(staging: string, meta: UserTableMeta): SqlFragment[] {
  const row: UserCell[] = [
    meta.name,
    meta.file,
    meta.kind,
    meta.format,
    meta.rows,
    meta.mapping,
    new Date().toISOString(),
  ];
  return [
    sql`BEGIN TRANSACTION`,
    sql`CREATE OR REPLACE TABLE ${ident(meta.name)} AS SELECT * FROM ${ident(staging)}`,
    sql`${trusted(USER_META_DDL)}`,
    sql`DELETE FROM ${ident(USER_TABLES_META)} WHERE name = ${meta.name}`,
    sql`INSERT INTO ${ident(USER_TABLES_META)} VALUES (${joinSql(row.map(cellSql), ', ')})`,
    sql`COMMIT`,
  ];
}

export const ROLLBACK_SQL = 'ROLLBACK';

export function dropTableSql(table: string): string {
  return `DROP TABLE IF EXISTS ${quoteIdent(table)}`;
}

/** Drops a user table and its catalogue entry; run in order inside one transaction. */
export function dropUserTableStatements(name: string): SqlFragment[] {
  return [
    sql`BEGIN TRANSACTION`,
    sql`DROP TABLE IF EXISTS ${ident(name)}`,
    sql`${trusted(USER_META_DDL)}`,
    sql`DELETE FROM ${ident(USER_TABLES_META)} WHERE name = ${name}`,
    sql`COMMIT`,
  ];
}

export const INMIND_TASK_IDS_SQL = 'SELECT task_id FROM inmind_tasks';

/** One dataset's rows of the shared `turns` table, in file order. */
export function reproduceTurnsSql(dataset: string): SqlFragment {
  return sql`SELECT conv_id, session, dia_id, turn_index, speaker, date, text, caption
FROM turns WHERE dataset = ${dataset} ORDER BY rowid`;
}

/** One dataset's rows of the shared `queries` table, in file order. */
export function reproduceQueriesSql(dataset: string): SqlFragment {
  return sql`SELECT query_id, conv_id, style, category, text, gold_ids
FROM queries WHERE dataset = ${dataset} ORDER BY rowid`;
}

export const REPRODUCE_LOCOMO_PLUS_ITEMS_SQL = `SELECT item_id, item_index, relation_type
FROM locomo_plus_items ORDER BY item_index`;

/** LoCoMo-Plus release mode: the exact texts the release scored and its per-item scores. */
export const REPRODUCE_LOCOMO_PLUS_RELEASE_SQL = `SELECT item_id, item_index, relation_type,
  cue_dialogue, trigger_query, score_bge, rank_bge, rank_bm25
FROM locomo_plus_items ORDER BY item_index`;

/** MemLens's published real-model numbers for one benchmark (data/reproduced/*.csv). */
export function reproducePublishedSql(benchmark: string): SqlFragment {
  return sql`SELECT "row", "column", value, unit, n, model, dtype, revision, command
  FROM reproduced WHERE benchmark = ${benchmark} AND model <> 'BM25'
  ORDER BY model, metric, k NULLS LAST, "column"`;
}
