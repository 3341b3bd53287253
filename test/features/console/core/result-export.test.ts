import { describe, expect, it } from 'vitest';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { resultCsv, resultParquet } from '../../../../src/features/console/core/result-export.ts';

const columns = [
  { name: 'n', type: 'BIGINT' },
  { name: 'i', type: 'INTEGER' },
  { name: 's', type: 'VARCHAR' },
  { name: 'l', type: 'VARCHAR[]' },
  { name: 'b', type: 'BOOLEAN' },
];
const rows = [
  { n: 1.5e10, i: 3, s: '=SUM(A1)', l: ['a', 'b'], b: true },
  { n: null, i: null, s: 'plain, "quoted"', l: null, b: false },
];

describe('console result export', () => {
  it('writes CSV in the result column order, neutralising formulas', () => {
    const csv = resultCsv(columns, rows);
    expect(csv.text).toBe(
      'n,i,s,l,b\n15000000000,3,\'=SUM(A1),"[""a"",""b""]",true\n,,"plain, ""quoted""",,false\n',
    );
    expect(csv.neutralised).toBe(1);
    expect(resultCsv(columns, []).text).toBe('n,i,s,l,b\n');
  });

  it('writes Parquet that reads back with numbers, booleans and text', async () => {
    const file = resultParquet(columns, rows);
    const back = await parquetReadObjects({ file });
    expect(back).toEqual([
      { n: 1.5e10, i: 3, s: '=SUM(A1)', l: '["a","b"]', b: true },
      { n: null, i: null, s: 'plain, "quoted"', l: null, b: false },
    ]);
    expect(parquetMetadata(file).num_rows).toBe(2n);
  });
});
