import { describe, expect, it } from 'vitest';
import {
  freeTableName,
  renewedSuggestion,
  tableNameProblem,
  userTableName,
} from '../../../src/lib/userdata/table-name.ts';

describe('user table names', () => {
  it('derive a safe name from the file name', () => {
    expect(userTableName('My Results (v2).jsonl')).toBe('user_my_results_v2');
    expect(userTableName('C:\\data\\runs.csv')).toBe('user_runs');
    expect(userTableName('https://host/x/scores.parquet?token=1')).toBe('user_scores');
    expect(userTableName('日本語.json')).toBe('user_data');
    expect(userTableName(`${'a'.repeat(80)}.csv`)).toBe(`user_${'a'.repeat(48)}`);
  });

  it('say what is wrong with a name a reader typed', () => {
    expect(tableNameProblem('user_ok_1')).toBeNull();
    expect(tableNameProblem('results')).toMatch(/start with "user_"/);
    expect(tableNameProblem('user_drop table')).not.toBeNull();
    expect(tableNameProblem(`user_${'a'.repeat(49)}`)).not.toBeNull();
  });

  it('find the first free name, within the length limit', () => {
    expect(freeTableName('user_a', new Set())).toBe('user_a');
    expect(freeTableName('user_a', new Set(['user_a', 'user_a_2']))).toBe('user_a_3');
    const long = `user_${'a'.repeat(48)}`;
    const free = freeTableName(long, new Set([long]));
    expect(free).toHaveLength(53);
    expect(free.endsWith('_2')).toBe(true);
    expect(tableNameProblem(free)).toBeNull();
  });

  it('move a suggested name on when the table list grows, never a name the reader typed', () => {
    const suggestion = { base: 'user_good', table: 'user_good' };
    const taken = new Set(['user_good']);
    expect(renewedSuggestion(suggestion, 'user_good', taken)).toBe('user_good_2');
    expect(renewedSuggestion(suggestion, 'user_good', new Set())).toBe('user_good');
    expect(renewedSuggestion(suggestion, 'user_mine', taken)).toBeNull();
    const moved = { base: 'user_good', table: 'user_good_2' };
    expect(renewedSuggestion(moved, 'user_good', taken)).toBeNull();
    expect(renewedSuggestion(moved, 'user_good_2', new Set(['user_good', 'user_good_2']))).toBe(
      'user_good_3',
    );
  });
});
