import type { ProtocolSpec } from '../benchmarks/benchmark-def.ts';
import { requireProtocolRun } from '../benchmarks/registry.ts';
import type { QueryRunner } from '../query/query-client.ts';
import { INMIND_DEFAULTS } from '../protocol-kit/inmind.ts';
import { LOCOMO_PLUS_MODES } from '../protocol-kit/locomo-plus.ts';
import type { Protocol } from '../protocol-kit/types.ts';

export type { ProtocolSpec } from '../benchmarks/benchmark-def.ts';

export const DEFAULT_SPEC: Readonly<ProtocolSpec> = Object.freeze({
  benchmark: 'inmind',
  inmind: INMIND_DEFAULTS,
  locomoPlus: LOCOMO_PLUS_MODES[0],
});

/** Reads what the benchmark needs and builds its protocol (page and CLI alike). */
export async function buildProtocol(spec: ProtocolSpec, reader: QueryRunner): Promise<Protocol> {
  return requireProtocolRun(spec.benchmark).build(reader, spec);
}
