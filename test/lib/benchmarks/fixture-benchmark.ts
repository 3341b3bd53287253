// A benchmark that exists only in tests: one registry entry plus its adapter, nothing else.
import type { BenchmarkDef } from '../../../src/lib/benchmarks/benchmark-def.ts';

export const FIXTURE_BENCHMARK: BenchmarkDef = {
  id: 'fixture-mem',
  label: 'FixtureMem',
  paper: null,
  page: { kind: 'paper', navLabel: 'FixtureMem' },
  dataset: {
    phase: 'benchmarks',
    required: false,
    sourceIds: [],
    tables: ['turns', 'queries', 'fixture_notes'],
    load: async () => ({
      turns: [
        {
          dataset: 'locomo',
          conv_id: 'fx-1',
          session: 1,
          dia_id: 'D1:1',
          turn_index: 0,
          speaker: 'A',
          date: '',
          text: 'I keep bees on the roof.',
          caption: null,
          img_url: null,
        },
      ],
      queries: [],
      extras: { fixture_notes: [{ note: 'from the fixture adapter' }] },
      files: { 'fixture-mem': 'fixture/bees.json' },
    }),
  },
  protocols: [{ id: 'fixture-mem', label: 'FixtureMem (test only)' }],
};
