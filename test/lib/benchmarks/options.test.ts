import { describe, expect, it } from 'vitest';
import {
  allOptions,
  applyOptions,
  choiceText,
  isReleaseSpec,
  optionForFlag,
  optionQueryPrefix,
  optionUsage,
  protocolOptions,
  resetOnBenchmark,
  startingChoice,
} from '../../../src/lib/benchmarks/options.ts';
import { DEFAULT_SPEC } from '../../../src/lib/protocols/build.ts';

const spec = (benchmark: string, asked: Record<string, string> = {}) =>
  applyOptions({ ...DEFAULT_SPEC, benchmark }, asked);

const words = (protocol: string) =>
  protocolOptions(protocol).map((o) => [o.label, o.choices.map((c) => choiceText(o, c, protocol))]);

describe('the protocol options of the registry', () => {
  it('are declared by their benchmark folders, each with its URL key and CLI flag', () => {
    expect(allOptions().map(({ def, option }) => [def.id, option.key, option.flag])).toEqual([
      ['inmind', 'target', 'target'],
      ['inmind', 'bg', 'background'],
      ['locomo-plus', 'mode', 'mode'],
    ]);
    expect(optionForFlag('--background')?.key).toBe('bg');
    expect(optionForFlag('--bg')).toBeUndefined();
  });

  it("give each protocol its selects, the paper's choice marked as the page marked it", () => {
    expect(words('inmind')).toEqual([
      [
        'Target memory',
        ['user + assistant message (paper: Naive RAG)', "user message only (MemLens's own)"],
      ],
      [
        'Background text',
        ['as in the file (timestamp kept; paper: "raw")', "timestamp removed (MemLens's own)"],
      ],
    ]);
    expect(words('inmind-figure4')[0]).toEqual([
      'Target memory',
      ["user + assistant message (MemLens's own)", 'user message only (paper: App. 9)'],
    ]);
    expect(words('locomo-plus')).toEqual([
      [
        'Mode',
        ['release: scores.bge, recomputed pairwise', "retrieval over cue turns (MemLens's own)"],
      ],
    ]);
    expect(words('locomo')).toEqual([]);
  });

  it("start each protocol on its paper's choice, and take a known value over it", () => {
    expect(spec('inmind').inmind).toEqual({ target: 'chunk', background: 'raw' });
    expect(spec('inmind-figure4').inmind.target).toBe('user');
    expect(spec('inmind-figure4', { target: 'chunk', bg: 'content' }).inmind).toEqual({
      target: 'chunk',
      background: 'content',
    });
    const [target] = protocolOptions('inmind-figure4');
    expect(startingChoice(target, 'inmind-figure4')).toBe('user');
    expect(startingChoice(target, 'locomo')).toBe('chunk');
  });

  it('fall back on an unknown value, and say which', () => {
    const bad: string[] = [];
    const s = applyOptions(
      { ...DEFAULT_SPEC, benchmark: 'locomo-plus' },
      { mode: 'x' },
      undefined,
      (o, v) => bad.push(`${o.key}=${v}`),
    );
    expect([s.locomoPlus, bad]).toEqual(['release', ['mode=x']]);
  });

  it('say what a choice implies: the release comparison, or the query prefix', () => {
    expect(isReleaseSpec(spec('locomo-plus'))).toBe(true);
    expect(isReleaseSpec(spec('locomo-plus', { mode: 'retrieval' }))).toBe(false);
    // The mode is LoCoMo-Plus's: another protocol with the same URL runs a retrieval.
    expect(isReleaseSpec(spec('inmind'))).toBe(false);
    expect(optionQueryPrefix(spec('locomo-plus', { mode: 'retrieval' }))).toBe(true);
    expect(optionQueryPrefix(spec('locomo-plus'))).toBeUndefined();
    expect(optionQueryPrefix(spec('inmind'))).toBeUndefined();
  });

  it('clear the choices that restart on a new benchmark, keep the background text', () => {
    expect(resetOnBenchmark()).toEqual(['target', 'mode']);
  });

  it('write one usage line per flag', () => {
    expect(optionUsage()).toEqual([
      '  --target T           InMind: chunk | user (chunk: user + assistant, Naive RAG; user: user_message, Figure 4)',
      '  --background B       InMind: raw | content (raw: timestamp kept, default; content: timestamp removed)',
      "  --mode M             LoCoMo-Plus: release | retrieval (default release: the release's scores.bge, pairwise)",
    ]);
  });
});
