// The protocol options every benchmark folder declares (BenchmarkDef.options), read generically:
// the Reproduce page's selects, the URL's keys and the CLI's flags all come from this one schema.
import type { BenchmarkDef, BenchmarkOption, OptionChoice, ProtocolSpec } from './benchmark-def.ts';
import { BENCHMARK_DEFS } from './registry.ts';

/** Every option of every benchmark, with the benchmark that declares it, in registry order. */
export function allOptions(
  defs: readonly BenchmarkDef[] = BENCHMARK_DEFS,
): { def: BenchmarkDef; option: BenchmarkOption }[] {
  return defs.flatMap((def) => (def.options ?? []).map((option) => ({ def, option })));
}

/** The options a protocol's controls show, in order. */
export function protocolOptions(
  protocol: string,
  defs: readonly BenchmarkDef[] = BENCHMARK_DEFS,
): BenchmarkOption[] {
  return allOptions(defs)
    .filter(({ def, option }) =>
      (option.protocols ?? def.protocols.map((p) => p.id)).includes(protocol),
    )
    .map(({ option }) => option);
}

/** The value a protocol starts on: its paper's choice, else the option's default. */
export function startingChoice(option: BenchmarkOption, protocol: string): string {
  return option.paperChoice?.[protocol] ?? option.default;
}

function choiceOf(option: BenchmarkOption, value: string): OptionChoice | undefined {
  return option.choices.find((c) => c.value === value);
}

/**
 * Sets every option from `asked` (URL key → value, untrusted): a value the option has is taken,
 * any other is reported by `onBad` and the protocol's starting choice taken instead.
 */
export function applyOptions(
  spec: ProtocolSpec,
  asked: Readonly<Record<string, string | undefined>>,
  defs: readonly BenchmarkDef[] = BENCHMARK_DEFS,
  onBad: (option: BenchmarkOption, value: string) => void = () => {},
): ProtocolSpec {
  return allOptions(defs).reduce((out, { option }) => {
    const value = asked[option.key];
    if (value !== undefined && choiceOf(option, value) === undefined) onBad(option, value);
    const choice =
      (value === undefined ? undefined : choiceOf(option, value)) ??
      choiceOf(option, startingChoice(option, spec.benchmark));
    return choice ? option.set(out, choice.value) : out;
  }, spec);
}

/** The chosen values of the spec's protocol options. */
function chosen(spec: ProtocolSpec, defs: readonly BenchmarkDef[]): OptionChoice[] {
  return protocolOptions(spec.benchmark, defs).flatMap((o) => choiceOf(o, o.get(spec)) ?? []);
}

/** Whether the spec runs the release's own comparison rather than a retrieval. */
export function isReleaseSpec(
  spec: ProtocolSpec,
  defs: readonly BenchmarkDef[] = BENCHMARK_DEFS,
): boolean {
  return chosen(spec, defs).some((c) => c.release === true);
}

/** The query prefix the spec's options start a run with; undefined: the paper's. */
export function optionQueryPrefix(
  spec: ProtocolSpec,
  defs: readonly BenchmarkDef[] = BENCHMARK_DEFS,
): boolean | undefined {
  return chosen(spec, defs).find((c) => c.queryPrefix !== undefined)?.queryPrefix;
}

/** A choice's words in the control: "(note)" where it is the paper's, "(MemLens's own)" elsewhere. */
export function choiceText(
  option: BenchmarkOption,
  choice: OptionChoice,
  protocol: string,
): string {
  if (choice.value !== startingChoice(option, protocol)) return `${choice.label} (MemLens's own)`;
  return choice.paperNote ? `${choice.label} (${choice.paperNote})` : choice.label;
}

/** The URL keys a new benchmark clears, so that it starts on its own choices. */
export function resetOnBenchmark(defs: readonly BenchmarkDef[] = BENCHMARK_DEFS): string[] {
  return allOptions(defs).flatMap(({ option }) => (option.keep ? [] : [option.key]));
}

/** The CLI usage lines of the options, one per flag. */
export function optionUsage(defs: readonly BenchmarkDef[] = BENCHMARK_DEFS): string[] {
  return allOptions(defs).map(({ def, option }) => {
    const flag = `--${option.flag} ${option.flag[0].toUpperCase()}`;
    const values = option.choices.map((c) => c.value).join(' | ');
    return `  ${flag.padEnd(20)} ${def.label}: ${values} (${option.help})`;
  });
}

/** The option a CLI flag (`--mode`) sets, if any. */
export function optionForFlag(
  flag: string,
  defs: readonly BenchmarkDef[] = BENCHMARK_DEFS,
): BenchmarkOption | undefined {
  return allOptions(defs).find(({ option }) => `--${option.flag}` === flag)?.option;
}
