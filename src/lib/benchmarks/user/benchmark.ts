// A reader's own benchmark: a table loaded on Your data and declared over (protocol-kit/
// user-benchmark.ts). Its protocol id is the table's name (`user_…`), so the Reproduce page's
// `bench` and the CLI name it as they name a paper's protocol, and it runs through the same kit.
import type { ProtocolRunDef } from '../benchmark-def.ts';

// userdata/table-name.ts's rule, restated: importing it would pull the loader's chunk into the
// first page with the registry (budgets.json); test/lib/benchmarks/user checks the two agree.
const USER_TABLE = /^user_[a-z0-9_]{1,48}$/;

/** Whether `id` can name a reader's benchmark (a user table's name); says nothing of whether one exists. */
export function isUserBenchmarkId(id: string): boolean {
  return USER_TABLE.test(id);
}

const ours = 'your benchmark: no paper figure';

/** How a declared table runs: read its declaration and rows, build one pool of its memories. */
export function userProtocolRun(table: string): ProtocolRunDef {
  return {
    build: async (reader) => {
      const { buildUserBenchmark } = await import('../../protocol-kit/user-benchmark.ts');
      return buildUserBenchmark(reader, table);
    },
    defaults: {
      benchmark: table,
      k: 5,
      retriever: 'bm25',
      paperRetrievers: [],
      queryPrefix: false,
      source: `your benchmark ${table}`,
      sentence: 'declared on Your data: each query against every memory of the table',
      cite: 'Your data',
    },
    recomputed: `Your benchmark ${table}: each query against every memory of the table, its gold memories the targets.`,
    none: 'Your own benchmark: there is no paper number to compare with.',
    figures: { similarity: ours, recall: ours },
  };
}
