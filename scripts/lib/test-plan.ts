/**
 * The e2e runs `npm test` queues (scripts/run-tests.ts), from each file's seconds in an earlier
 * run: a file that takes long is a run of its own, the others are packed into runs of about
 * `groupSeconds`, and the runs are queued longest first, so that two lanes draining the queue end
 * about together and few Vitest processes (each a start-up of seconds) are started.
 */

export interface PlanOptions {
  /** A file at least this long (s) is a run of its own. */
  aloneSeconds: number;
  /** The others fill runs up to this many seconds. */
  groupSeconds: number;
  /** What a file with no recorded time is taken to last (a new file). */
  unknownSeconds: number;
}

interface Run {
  files: string[];
  seconds: number;
}

/** Files, slowest first, into runs: first fit of each into a run with room, else a new run. */
function pack(files: readonly string[], weight: (f: string) => number, cap: number): Run[] {
  const runs: Run[] = [];
  for (const file of files) {
    const room = runs.find((r) => r.seconds + weight(file) <= cap);
    if (room) {
      room.files.push(file);
      room.seconds += weight(file);
    } else runs.push({ files: [file], seconds: weight(file) });
  }
  return runs;
}

/** The runs for `files`, longest first; each file in exactly one run. */
export function planE2eRuns(
  files: readonly string[],
  seconds: Readonly<Record<string, number>>,
  opts: PlanOptions,
): string[][] {
  const weight = (f: string) => seconds[f] ?? opts.unknownSeconds;
  const slowestFirst = [...new Set(files)].sort(
    (a, b) => weight(b) - weight(a) || (a < b ? -1 : 1),
  );
  const alone = slowestFirst.filter((f) => weight(f) >= opts.aloneSeconds);
  const rest = slowestFirst.filter((f) => weight(f) < opts.aloneSeconds);
  const runs = [
    ...alone.map((f) => ({ files: [f], seconds: weight(f) })),
    ...pack(rest, weight, opts.groupSeconds),
  ];
  return runs.sort((a, b) => b.seconds - a.seconds).map((r) => r.files);
}

/** `file-seconds.json`'s text: an object of file name → seconds, or an error naming the entry. */
export function parseFileSeconds(text: string, file: string): Record<string, number> {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error(`${file}: expected an object of test file → seconds`);
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value !== 'number' || !(value >= 0))
      throw new Error(`${file}: "${name}" has ${JSON.stringify(value)}, expected seconds (≥ 0)`);
    out[name] = value;
  }
  return out;
}
