import { describe, expect, it } from 'vitest';
import { readRecords } from '../../../src/lib/userdata/records.ts';
import { bytesSource } from '../../../src/lib/userdata/byte-source.ts';
import { GOOD_DIR, chunked, collect, fixture } from './helpers.ts';

describe('CSV records', () => {
  it('reads quoted commas, doubled quotes, multi-line fields, CRLF and a BOM', async () => {
    const records = await collect(readRecords(fixture(GOOD_DIR, 'records.csv'), 'csv'));
    expect(records).toEqual([
      {
        line: 2,
        path: '',
        value: { question: 'Where, exactly?', memory: 'Line one\nline two', answer: 'Paris' },
      },
      { line: 4, path: '', value: { question: 'He said "hi"', memory: 'plain', answer: '42' } },
      { line: 6, path: '', value: { question: 'last', memory: '', answer: '' } },
    ]);
  });

  it('gives the same records whatever the chunk size', async () => {
    const text = 'a,b\n"x\n\ny",2\n"",""\n';
    const whole = await collect(readRecords(bytesSource('t.csv', text), 'csv'));
    const bytewise = await collect(readRecords(chunked('t.csv', text, 1), 'csv'));
    expect(bytewise).toEqual(whole);
    expect(whole.map((r) => r.value)).toEqual([
      { a: 'x\n\ny', b: '2' },
      { a: '', b: '' },
    ]);
  });

  it('reads TSV with tabs', async () => {
    const records = await collect(
      readRecords(bytesSource('t.tsv', 'q\tm\nhello, world\t"quoted\tTab"\n'), 'tsv'),
    );
    expect(records[0].value).toEqual({ q: 'hello, world', m: 'quoted\tTab' });
  });
});
