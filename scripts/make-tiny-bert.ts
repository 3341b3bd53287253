// Writes the deterministic tiny BERT test model: npx tsx scripts/make-tiny-bert.ts [--out DIR]
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTinyBertFiles } from './lib/tiny-bert/make.ts';
import { sha256Hex } from '../src/lib/common/sha256.ts';
import { checkCommandLine } from './lib/cli.ts';
import { writeAtomically } from './lib/files.ts';

export const DEFAULT_OUT = 'test/fixtures/models/tiny-bert';

export interface WrittenFile {
  path: string;
  sha256: string;
}

export async function writeTinyBert(outDir: string): Promise<WrittenFile[]> {
  const written: WrittenFile[] = [];
  for (const file of makeTinyBertFiles()) {
    const target = join(outDir, file.path);
    // Atomic: a test reading the fixture meanwhile never sees half a model.
    await writeAtomically(target, file.bytes);
    written.push({
      path: file.path,
      sha256: await sha256Hex(file.bytes),
    });
  }
  return written;
}

function parseOut(args: string[]): string {
  const index = args.indexOf('--out');
  if (index === -1) return DEFAULT_OUT;
  const value = args[index + 1];
  if (!value) throw new Error('--out needs a directory');
  return value;
}

async function main(): Promise<void> {
  checkCommandLine({
    usage: `Usage: npm run make:tiny-bert -- [--out DIR]

Writes the deterministic 2-layer test BERT (tiny-bert) and prints each file's sha256.

Options:
  --out DIR     where (default ${DEFAULT_OUT})
  -h, --help    print this and exit`,
    values: ['--out'],
  });
  const outDir = resolve(parseOut(process.argv.slice(2)));
  for (const file of await writeTinyBert(outDir)) console.log(`${file.sha256}  ${file.path}`);
  console.log(`wrote ${outDir}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
