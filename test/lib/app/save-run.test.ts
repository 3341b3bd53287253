import { afterEach, describe, expect, it } from 'vitest';
import { saveRunTable } from '../../../src/lib/app/save-run.ts';
import { Catalog } from '../../../src/lib/db/catalog.ts';
import { openNodeEngine } from '../../../src/lib/db/node-engine.ts';
import { comparePaper, type PaperRow } from '../../../src/lib/protocol-kit/paper.ts';
import { MemoryTableStore } from '../../../src/lib/userdata/persist-store.ts';
import { evaluate } from '../protocol-kit/compare-fixture.ts';

const opened: Catalog[] = [];
afterEach(async () => {
  for (const c of opened.splice(0)) await c.engine.close();
});

const paper: PaperRow = {
  paper: 'fixture-paper',
  table: 'Table 9',
  row: 'Ranker',
  column: 'R@5 naive',
  value: 80,
  value_text: '80.0',
  unit: '%',
  system: 'Ranker',
  variant: 'naive',
  metric: 'recall@5',
  source_line: 12,
};

describe('saveRunTable', () => {
  it("writes the run's paper comparison as a table of paper_vs_ours's shape, then says the data changed", async () => {
    const catalog = new Catalog(await openNodeEngine());
    opened.push(catalog);
    let changes = 0;
    const services = {
      catalog,
      tableStore: new MemoryTableStore(),
      userFiles: new Map<string, string>(),
      keptHere: new Map<string, string>(),
      dataChanged: () => void changes++,
    };
    // Gold first on every query but the fifth of each ten (rank 7).
    const evaluation = evaluate('ranker', (q) => (q % 10 === 4 ? 7 : 1));
    const target = () => ({
      series: 'naive',
      retriever: 'ranker',
      retrieverLabel: 'Ranker',
      k: 5,
      judged: null,
      paperInterval: null,
    });
    const comparisons = comparePaper(evaluation, [paper], 5, target);
    const table = await saveRunTable(services, { evaluation, comparisons, k: 5, model: null });
    expect(table).toBe('run_fixture_ranker_k5');
    expect(changes).toBe(1);
    const rows = await catalog.query(
      `SELECT benchmark, system, scope, k, paper_k, comparability, paper_value, ours_value, difference, n, model, command FROM ${table}`,
    );
    expect(rows).toEqual([
      {
        benchmark: 'fixture',
        system: 'ranker',
        scope: 'naive',
        k: 5,
        paper_k: 5,
        comparability: 'exact',
        paper_value: 80,
        ours_value: 90,
        difference: 10,
        n: 20,
        model: 'BM25',
        command: 'browser',
      },
    ]);
    // Saving the same run again replaces it.
    await saveRunTable(services, { evaluation, comparisons, k: 5, model: null });
    expect((await catalog.query(`SELECT count(*) AS n FROM ${table}`))[0].n).toBe(1);
  });
});
