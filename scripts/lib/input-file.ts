// A file the CLI is given (`--benchmark-file`, `--mapping`, `pack:FILE`, `submission:FILE`): read
// whole, with a message that names the path and what was expected instead of EISDIR or ENOENT.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

function shown(file: string): string {
  return path.relative(process.cwd(), path.resolve(file)) || '.';
}

/** Why `file` cannot be read as `what` (a directory, missing), or null when it is a file. */
export async function inputFileProblem(file: string, what: string): Promise<string | null> {
  const found = await stat(file).catch(() => null);
  if (found === null) return `${shown(file)}: no such file; ${what} names a file`;
  if (found.isDirectory()) {
    return `${shown(file)} is a directory; ${what} names a file (give the path of the file in it)`;
  }
  return found.isFile() ? null : `${shown(file)} is not a regular file; ${what} names a file`;
}

/** The bytes of `file`, or an error that names it and what `what` expects. */
export async function readInputFile(file: string, what: string): Promise<Buffer> {
  const problem = await inputFileProblem(file, what);
  if (problem !== null) throw new Error(problem);
  return readFile(file);
}
