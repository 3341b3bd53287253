// Where a new benchmark's option keeps its value: `spec.options`, under its URL key. Apart from
// options.ts, which reads the registry, so that a benchmark folder may import it.
import type { BenchmarkOption } from './benchmark-def.ts';

/** The option's value in `spec.options[key]`; one it does not have reads as `fallback`. */
export function optionSlot<T extends string>(
  key: string,
  choices: readonly T[],
  fallback: T,
): Pick<BenchmarkOption<T>, 'get' | 'set'> {
  return {
    get: (spec) => choices.find((c) => c === spec.options?.[key]) ?? fallback,
    set: (spec, value) => ({ ...spec, options: { ...spec.options, [key]: value } }),
  };
}
