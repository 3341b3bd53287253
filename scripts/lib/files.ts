import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
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

/**
 * The working tree's files under `from` (tracked, and untracked ones git does not ignore), copied
 * into `to`; each of `links` (ignored folders such as .venv) that exists is linked, not copied.
 */
export function copyWorkingTree(from: string, to: string, links: readonly string[] = []): void {
  const listed = spawnSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: from,
      encoding: 'utf8',
    },
  );
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr.trim()}`);
  for (const file of new Set(listed.stdout.split('\0'))) {
    if (!file || !existsSync(path.join(from, file))) continue;
    mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
    cpSync(path.join(from, file), path.join(to, file));
  }
  for (const link of links) {
    if (existsSync(path.join(from, link))) symlinkSync(path.join(from, link), path.join(to, link));
  }
}
