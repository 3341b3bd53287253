// A benchmark that exists only in tests, as one folder: its adapter, its protocol builder, the
// paper's defaults and the page's words. Nothing outside this folder names it.
import type { BenchmarkDef } from '../../../../src/lib/benchmarks/benchmark-def.ts';
import { corpusMap } from '../../../../src/lib/protocol-kit/types.ts';

const TURN = {
  dataset: 'fixture-folder',
  conv_id: 'ff-1',
  session: 1,
  dia_id: 'D1:1',
  turn_index: 0,
  speaker: 'A',
  date: '',
  text: 'The spare key is under the blue pot.',
  caption: null,
  img_url: null,
};

export const FIXTURE_FOLDER = {
  id: 'fixture-folder',
  label: 'FixtureFolder',
  paper: null,
  page: { kind: 'paper', navLabel: 'FixtureFolder' },
  dataset: {
    phase: 'benchmarks',
    required: false,
    sourceIds: [],
    tables: ['turns', 'fixture_folder_keys'],
    load: async () => ({
      turns: [TURN],
      extras: { fixture_folder_keys: [{ key: 'blue pot' }] },
      files: { 'fixture-folder': 'fixture/keys.json' },
    }),
  },
  examples: [
    {
      id: 'fixture-folder-keys',
      title: 'FixtureFolder: the keys',
      sql: 'SELECT key FROM fixture_folder_keys',
    },
  ],
  protocols: [
    {
      id: 'fixture-folder',
      label: 'FixtureFolder — where the key is (test only)',
      run: {
        build: async () => ({
          benchmark: 'fixture-folder',
          notes: ['one turn, one query'],
          corpora: corpusMap([{ id: 'ff-1', docs: [TURN.text], docIds: [TURN.dia_id] }]),
          queries: [
            {
              id: 'q1',
              series: 'asked',
              group: 'all',
              text: 'Where is the spare key?',
              corpusId: 'ff-1',
              goldIds: [TURN.dia_id],
            },
          ],
          defaultK: 1,
        }),
        defaults: {
          benchmark: 'fixture-folder',
          retriever: 'bm25',
          paperRetrievers: ['bm25'],
          queryPrefix: false,
          source: 'FixtureFolder paper, Table 1',
          sentence: 'BM25 over the turns.',
          cite: 'FixtureFolder, §1',
        },
        recomputed: 'FixtureFolder: the one query against the one turn.',
        figures: { similarity: 'FixtureFolder, Figure 1', recall: 'FixtureFolder, Table 1' },
      },
    },
  ],
} as const satisfies BenchmarkDef;
