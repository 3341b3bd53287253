// InMind's two protocol options: which memory is the target, and the background turns' text.
import type { InMindOptions } from '../../protocol-kit/inmind.ts';
import type { BenchmarkOption } from '../benchmark-def.ts';

const PROTOCOLS = ['inmind', 'inmind-figure4'];

export const TARGET_OPTION: BenchmarkOption<InMindOptions['target']> = {
  key: 'target',
  flag: 'target',
  label: 'Target memory',
  help: 'chunk: user + assistant, Naive RAG; user: user_message, Figure 4',
  choices: [
    { value: 'chunk', label: 'user + assistant message', paperNote: 'paper: Naive RAG' },
    { value: 'user', label: 'user message only', paperNote: 'paper: App. 9' },
  ],
  default: 'chunk',
  paperChoice: { inmind: 'chunk', 'inmind-figure4': 'user' },
  protocols: PROTOCOLS,
  get: (spec) => spec.inmind.target,
  set: (spec, target) => ({ ...spec, inmind: { ...spec.inmind, target } }),
};

export const BACKGROUND_OPTION: BenchmarkOption<InMindOptions['background']> = {
  key: 'bg',
  flag: 'background',
  label: 'Background text',
  help: 'raw: timestamp kept, default; content: timestamp removed',
  choices: [
    { value: 'raw', label: 'as in the file', paperNote: 'timestamp kept; paper: "raw"' },
    { value: 'content', label: 'timestamp removed' },
  ],
  default: 'raw',
  protocols: PROTOCOLS,
  keep: true,
  get: (spec) => spec.inmind.background,
  set: (spec, background) => ({ ...spec, inmind: { ...spec.inmind, background } }),
};
