import { describe, expect, it } from 'vitest';
import {
  cellText,
  consoleColumns,
  isNumericType,
} from '../../../../src/features/console/core/result-types.ts';

describe('console columns', () => {
  const arrow = [
    { name: 'n', arrowType: 'Float64' },
    { name: 's', arrowType: 'Utf8' },
  ];

  it('takes DuckDB names when DESCRIBE matches the result, else the Arrow types', () => {
    const described = [
      { column_name: 'n', column_type: 'BIGINT' },
      { column_name: 's', column_type: 'VARCHAR' },
    ];
    expect(consoleColumns(arrow, described).map((c) => c.type)).toEqual(['BIGINT', 'VARCHAR']);
    expect(consoleColumns(arrow, described.slice(0, 1)).map((c) => c.type)).toEqual([
      'Float64',
      'Utf8',
    ]);
    expect(consoleColumns(arrow, null).map((c) => c.type)).toEqual(['Float64', 'Utf8']);
  });

  it('knows numeric types, lists excepted, and spells cells out', () => {
    expect(['BIGINT', 'DECIMAL(2,1)', 'Float64'].map(isNumericType)).toEqual([true, true, true]);
    expect(['INTEGER[]', 'VARCHAR'].map(isNumericType)).toEqual([false, false]);
    expect([null, 3, 'x', [1, 'a'], { k: true }].map(cellText)).toEqual([
      'NULL',
      '3',
      'x',
      '[1,"a"]',
      '{"k":true}',
    ]);
  });
});
