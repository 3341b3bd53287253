import type { UserCell, UserColumn } from '../query/user-tables.ts';
import type { MappedRow } from './mapping.ts';
import type { SubmissionRow } from './inmind-submission.ts';

/** Columns of a user table loaded through a field mapping. */
export const RECORD_COLUMNS: readonly UserColumn[] = [
  { name: 'line', type: 'INTEGER' },
  { name: 'query', type: 'VARCHAR' },
  { name: 'memory', type: 'VARCHAR' },
  { name: 'gold', type: 'VARCHAR[]' },
  { name: 'conversation', type: 'VARCHAR' },
  { name: 'speaker', type: 'VARCHAR' },
  { name: 'fields', type: 'VARCHAR' },
];

export function recordCells(r: MappedRow): UserCell[] {
  return [r.line, r.query, r.memory, r.gold, r.conversation, r.speaker, r.fields];
}

/** Columns of a user table holding an InMind submission. */
export const SUBMISSION_COLUMNS: readonly UserColumn[] = [
  { name: 'line', type: 'INTEGER' },
  { name: 'task_id', type: 'BIGINT' },
  { name: 'system', type: 'VARCHAR' },
  { name: 'config', type: 'VARCHAR' },
  { name: 'naive_context', type: 'VARCHAR' },
  { name: 'naive_answer', type: 'VARCHAR' },
  { name: 'query_context', type: 'VARCHAR' },
  { name: 'query_answer', type: 'VARCHAR' },
];

export function submissionCells(r: SubmissionRow): UserCell[] {
  return [
    r.line,
    r.task_id,
    r.system,
    r.config,
    r.naive_context,
    r.naive_answer,
    r.query_context,
    r.query_answer,
  ];
}
