import { access, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function exists(p: string): Promise<boolean> {
  try {
    await access(p);
    return true;
  } catch {
    return false;
  }
}

/** Writes through a temporary name so an interrupted or failed run leaves nothing half-written. */
export async function writeAtomically(target: string, bytes: Uint8Array): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const tmp = `${target}.part-${process.pid}`;
  try {
    await writeFile(tmp, bytes);
    await rename(tmp, target);
  } finally {
    await rm(tmp, { force: true });
  }
}
