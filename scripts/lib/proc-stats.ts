// What the benchmarks read from Linux's /proc: CPU time of processes, and the Chromium renderers
// this process started (a page's dedicated workers, ORT's WASM threads included, are threads of
// its renderer process).
import { readdir, readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';

/** The 1, 5 and 15 min load averages, as the benchmarks print them beside their figures. */
export function loadAverage(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

/** utime + stime of a process, in ms (Linux clock ticks are 10 ms). */
export async function cpuMsOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export async function cpuMsOfAll(pids: readonly number[]): Promise<number> {
  const each = await Promise.all(pids.map((p) => cpuMsOf(p).catch(() => 0)));
  return each.reduce((a, b) => a + b, 0);
}

/** Descendants of this process that are Chromium renderers, with their peak RSS (VmHWM). */
export async function rendererPeaks(): Promise<Map<number, number>> {
  const parent = new Map<number, number>();
  const renderers: number[] = [];
  for (const entry of await readdir('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      parent.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      const cmd = await readFile(`/proc/${pid}/cmdline`, 'utf8');
      if (cmd.includes('--type=renderer')) renderers.push(pid);
    } catch {
      // gone meanwhile
    }
  }
  const mine = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === process.pid) return true;
    }
    return false;
  };
  const out = new Map<number, number>();
  for (const pid of renderers.filter(mine)) {
    try {
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
      out.set(pid, kb * 1024);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
