// A benchmark that exists only in tests, as one folder: its adapter, its protocol builder and its
// one option, the paper's defaults, page and chart, and the page's words. Nothing outside this
// folder names it.
import type {
  BenchmarkDef,
  BenchmarkOption,
  ProtocolSpec,
} from '../../../../src/lib/benchmarks/benchmark-def.ts';
import { optionSlot } from '../../../../src/lib/benchmarks/option-slot.ts';
import { RESULT_COLUMNS, defineChart } from '../../../../src/lib/charts/chart-kit.ts';
import { corpusMap } from '../../../../src/lib/protocol-kit/types.ts';
import { rowSchema } from '../../../../src/lib/query/row-schema.ts';

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

const PHRASINGS = ['direct', 'oblique'] as const;
type Phrasing = (typeof PHRASINGS)[number];

export const PHRASING_OPTION: BenchmarkOption<Phrasing> = {
  key: 'phrasing',
  flag: 'phrasing',
  label: 'Query phrasing',
  help: 'how the query asks for the key',
  choices: [
    { value: 'direct', label: 'asks for the key', paperNote: 'paper: Table 1' },
    { value: 'oblique', label: 'asks how to get in' },
  ],
  default: 'direct',
  paperChoice: { 'fixture-folder': 'direct' },
  ...optionSlot('phrasing', PHRASINGS, 'direct'),
};

const QUESTIONS: Record<Phrasing, string> = {
  direct: 'Where is the spare key?',
  oblique: 'How do I get in when I am locked out?',
};

export const FIXTURE_CHART = defineChart({
  id: 'fixture-folder-keys-chart',
  title: 'FixtureFolder, Figure 1: the keys',
  source: 'FixtureFolder, Figure 1',
  sql: "SELECT * FROM results WHERE paper = 'fixture-folder'",
  decode: rowSchema(RESULT_COLUMNS),
  spec: (rows) => ({ data: { values: rows }, mark: 'bar' }),
});

function fixtureProtocol(spec: ProtocolSpec) {
  const phrasing = PHRASING_OPTION.get(spec);
  return {
    benchmark: 'fixture-folder',
    notes: ['one turn, one query'],
    corpora: corpusMap([{ id: 'ff-1', docs: [TURN.text], docIds: [TURN.dia_id] }]),
    queries: [
      {
        id: 'q1',
        series: phrasing,
        group: 'all',
        text: QUESTIONS[phrasing],
        corpusId: 'ff-1',
        goldIds: [TURN.dia_id],
      },
    ],
    defaultK: 1,
  };
}

export const FIXTURE_FOLDER = {
  id: 'fixture-folder',
  label: 'FixtureFolder',
  paper: 'fixture-folder',
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
        build: async (_reader, spec) => fixtureProtocol(spec),
        defaults: {
          benchmark: 'fixture-folder',
          k: 1,
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
  options: [PHRASING_OPTION],
  results: {
    info: {
      id: 'fixture-folder',
      label: 'FixtureFolder',
      title: 'FixtureFolder: where the key is',
      citation: 'FixtureFolder. A test paper.',
      textFile: 'fixture-folder.txt',
      intro: 'One turn, one query.',
      teaser: 'Where the key is.',
      notCharted: [],
    },
    charts: [FIXTURE_CHART],
  },
} as const satisfies BenchmarkDef;
