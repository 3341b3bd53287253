// The small files the Your data page offers as samples of each shape it reads, made in the page (a
// Blob download, no request). `benchmark.jsonl` and `typed.jsonl` load and declare as they are.

export interface SampleFile {
  name: string;
  /** What the file shows, one line for the page. */
  kind: string;
  /** One record of the shape, as the page prints it. */
  shape: string;
  text: string;
}

const MEMORIES = [
  {
    id: 'm1',
    text: 'My sister Lena moved to Porto last spring.',
    session: 's1',
    date: '2026-01-01',
  },
  { id: 'm2', text: 'I am allergic to peanuts.', session: 's1', date: '2026-01-03' },
  {
    id: 'm3',
    text: 'Our dog Biscuit is a beagle who hates thunderstorms.',
    session: 's2',
    date: '2026-01-05',
  },
  { id: 'm4', text: 'I started learning the cello in January.', session: 's2', date: '2026-01-07' },
];

const QUERIES = [
  { query: 'Where does my sister live now?', gold: ['m1'], category: 'family' },
  { query: 'Can I eat satay sauce?', gold: ['m2'], category: 'health' },
  {
    query: 'Is a fireworks night a good time to leave the dog alone?',
    gold: ['m3'],
    category: 'pets',
  },
];

const SUBMISSION = [
  {
    task_id: 0,
    system: 'MySystem',
    config: { k: 5 },
    naive: { context: "User: I've been diagnosed with asthma.", answer: 'You have asthma.' },
    query: {
      context: "User: I've been diagnosed with asthma.",
      answer: 'Ask about pet allergens first.',
    },
  },
  {
    task_id: 3,
    system: 'MySystem',
    config: { k: 5 },
    naive: { context: "User: I've been diagnosed with hypertension.", answer: 'Hypertension.' },
    query: { context: 'The user likes hiking.', answer: 'Try a decongestant.' },
  },
];

const jsonl = (rows: readonly object[]): string =>
  rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** The shape of a record as one line, its texts shortened to "…". */
function shapeOf(row: object): string {
  return JSON.stringify(row, (key, v: unknown) =>
    key !== '' && typeof v === 'string' && v.length > 12 ? '…' : v,
  )
    .replaceAll(/,"/g, ', "')
    .replaceAll(/":/g, '": ');
}

const typed = [
  ...MEMORIES.map(({ id, text }) => ({ type: 'memory', id, text })),
  ...QUERIES.map(({ query, gold, category }) => ({ type: 'query', text: query, gold, category })),
];

export const SAMPLES: readonly SampleFile[] = [
  { name: 'memories.jsonl', kind: 'Memories', shape: shapeOf(MEMORIES[0]), text: jsonl(MEMORIES) },
  { name: 'queries.jsonl', kind: 'Queries', shape: shapeOf(QUERIES[0]), text: jsonl(QUERIES) },
  {
    name: 'benchmark.jsonl',
    kind: 'A benchmark: memory lines, then query lines, in one file',
    shape: 'the two shapes above',
    text: jsonl([...MEMORIES, ...QUERIES]),
  },
  {
    name: 'typed.jsonl',
    kind: 'A benchmark whose rows say their kind (type or kind: memory / query)',
    shape: shapeOf(typed[typed.length - 1]),
    text: jsonl(typed),
  },
  {
    name: 'submission.jsonl',
    kind: 'An InMind submission',
    shape: shapeOf(SUBMISSION[0]),
    text: jsonl(SUBMISSION),
  },
];
