// The parts of profile:embed that Node and the browser bundle share: one batch's int64 feeds, and
// ORT's profiler events (Chrome trace format, from onnxruntime-node's JSON file or the lines
// onnxruntime-web prints) summed per op type.

export interface FeedArrays {
  dims: [number, number];
  inputIds: BigInt64Array;
  attentionMask: BigInt64Array;
  tokenTypeIds: BigInt64Array;
}

/** Right-padded to the longest row, as forward.ts's `batchFeeds` makes them. */
export function feedArrays(rows: readonly (readonly number[])[], padId: number): FeedArrays {
  const seq = Math.max(...rows.map((r) => r.length));
  const inputIds = new BigInt64Array(rows.length * seq).fill(BigInt(padId));
  const attentionMask = new BigInt64Array(rows.length * seq);
  rows.forEach((row, b) => {
    row.forEach((id, s) => {
      inputIds[b * seq + s] = BigInt(id);
      attentionMask[b * seq + s] = 1n;
    });
  });
  const tokenTypeIds = new BigInt64Array(rows.length * seq);
  return { dims: [rows.length, seq], inputIds, attentionMask, tokenTypeIds };
}

/** One node's kernel time: op type and microseconds. */
export interface KernelEvent {
  op: string;
  durUs: number;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** A trace event that is a node's `_kernel_time`, or null for any other event. */
export function kernelEvent(value: unknown): KernelEvent | null {
  if (!isRecord(value) || value.cat !== 'Node' || typeof value.name !== 'string') return null;
  if (!value.name.endsWith('_kernel_time') || typeof value.dur !== 'number') return null;
  const args = value.args;
  if (!isRecord(args) || typeof args.op_name !== 'string') return null;
  return { op: args.op_name, durUs: value.dur };
}

/** The kernel events among onnxruntime-web's console lines (each event one JSON object). */
export function kernelEventsOfLines(lines: readonly string[]): KernelEvent[] {
  const out: KernelEvent[] = [];
  for (const line of lines) {
    const start = line.indexOf('{');
    if (start < 0) continue;
    const text = line.slice(start).replace(/,\s*$/, '');
    try {
      const event = kernelEvent(JSON.parse(text));
      if (event) out.push(event);
    } catch {
      // not an event (ORT's other output)
    }
  }
  return out;
}

/** onnxruntime-node's profile file: a JSON array of trace events. */
export function kernelEventsOfFile(text: string): KernelEvent[] {
  const doc: unknown = JSON.parse(text);
  if (!Array.isArray(doc)) throw new Error('profile is not a JSON array');
  return doc.map(kernelEvent).filter((e): e is KernelEvent => e !== null);
}

/**
 * Microseconds per op type over the last `timedRuns` of `runs` runs: every run executes the same
 * nodes, so the first runs' share of the events (the warm-up) is dropped from the front.
 */
export function opTotals(
  events: readonly KernelEvent[],
  runs: number,
  timedRuns: number,
): Map<string, number> {
  if (events.length % runs !== 0) {
    throw new Error(`${events.length} kernel events do not split into ${runs} runs`);
  }
  const totals = new Map<string, number>();
  for (const e of events.slice((events.length / runs) * (runs - timedRuns))) {
    totals.set(e.op, (totals.get(e.op) ?? 0) + e.durUs);
  }
  return totals;
}
