import { describe, expect, it } from 'vitest';
import { csvExport, isFormulaLike, rowsToCsv } from '../../../src/lib/common/csv-export.ts';

describe('csvExport', () => {
  it('neutralises cells a spreadsheet would run as formulas, and counts them', () => {
    const out = csvExport([
      { label: '=HYPERLINK("http://x","y")', value: -3 },
      { label: '+1+2', value: 4.5 },
      { label: '@SUM(A1)', value: null },
      { label: '\tTab', value: 0 },
      { label: '-12.5', value: 1 },
      { label: 'plain', value: 2 },
    ]);
    expect(out.neutralised).toBe(4);
    expect(out.text).toBe(
      [
        'label,value',
        `"'=HYPERLINK(""http://x"",""y"")",-3`,
        "'+1+2,4.5",
        "'@SUM(A1),",
        "'\tTab,0",
        '-12.5,1',
        'plain,2',
        '',
      ].join('\n'),
    );
  });

  it('leaves numbers alone, and quotes commas, quotes and newlines', () => {
    expect(isFormulaLike('-5')).toBe(false);
    expect(isFormulaLike('-5x')).toBe(true);
    expect(isFormulaLike('\rcmd')).toBe(true);
    expect(rowsToCsv([{ a: 'x,y', b: 'say "hi"', c: 'l1\nl2' }])).toBe(
      'a,b,c\n"x,y","say ""hi""","l1\nl2"\n',
    );
  });
});
