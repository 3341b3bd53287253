// Two InMind tasks over three background turns, scored by a retriever whose scores are known, and
// laid out on vectors that depend only on the text: the map modules' shared fixture.
import { mapLayout } from '../../../src/lib/map/map-points.ts';
import { inmindProtocol, type InMindTask } from '../../../src/lib/protocol-kit/inmind.ts';
import { scoreProtocol } from '../../../src/lib/protocol-kit/evaluate.ts';
import type { Retriever } from '../../../src/lib/protocol-kit/retriever.ts';

export const tasks: InMindTask[] = [1, 2].map((id) => ({
  task_id: id,
  domain: 'food',
  user_message: `I love dish ${id}`,
  assistant_message: 'Noted.',
  naive_query: `naive ${id}`,
  query: `indirect ${id}`,
}));
export const background = ['a', 'bb', 'ccc'].map((t, i) => ({
  id: `t${i}`,
  raw_content: t,
  content: t,
}));

/** Score: doc index / 10, plus 0.5 for the task's own target under its naive query. */
export const retriever: Retriever = {
  id: 'fake',
  label: 'Fake',
  prepare: async () => undefined,
  forCorpus: (corpus) => (query) =>
    Float64Array.from(
      corpus.docs,
      (_, i) => i / 10 + (query.startsWith('naive') && corpus.docIds[i] === 'target' ? 0.5 : 0),
    ),
};

export const evaluation = scoreProtocol(inmindProtocol(tasks, background), retriever, 3);
export const layout = mapLayout(evaluation, (role, text) =>
  Float32Array.from([text.length, role === 'query' ? 1 : 0]),
);
export const coords = Float32Array.from(layout.points.flatMap((_, i) => [i, -i]));
