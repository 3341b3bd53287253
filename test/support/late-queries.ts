// A benchmark file whose queries all come after its memories (issue 37.5): `memories` memory
// records, then `queries` query records, each query's gold a memory. The mapping must see the
// query fields, which no record of the first 200 holds.

export const LATE_QUERIES_NAME = 'late-queries.jsonl';

export function lateQueriesJsonl(memories: number, queries: number): string {
  const lines: string[] = [];
  const id = (i: number) => `m${String(i).padStart(6, '0')}`;
  for (let i = 0; i < memories; i++) {
    lines.push(
      JSON.stringify({ id: id(i), memory: `note ${i}: the ${i % 7} cat sat on mat ${i % 13}` }),
    );
  }
  for (let q = 0; q < queries; q++) {
    const gold = (q * 997) % memories;
    lines.push(
      JSON.stringify({
        query: `which cat sat on mat ${gold % 13}?`,
        gold: [id(gold)],
        category: `c${q % 3}`,
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}
