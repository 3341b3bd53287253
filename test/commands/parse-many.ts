// Runs scripts' command-line checks for many argument lists in one process, as `tsx` runs each
// script: process.argv is set as npm would set it and the script module is evaluated afresh for each
// list (its imports load once). process.exit ends a list, as it ends a process: what the script
// printed until then and the code are its result. Spawned by commands.test.ts with the plan as JSON
// on stdin (parse-plan.ts); prints the results as one JSON line after RESULT_MARK. Not a module to
// import: it takes over process.exit and the output streams.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { errorMessage } from '../../src/lib/common/error-message.ts';
import { isParseRequest, RESULT_MARK, type ParseRequest, type ParseResult } from './parse-plan.ts';

const CASE_TIMEOUT_MS = 60_000;

class ExitSignal extends Error {
  constructor(readonly code: number) {
    super(`process.exit(${code})`);
  }
}

interface Current {
  output: string;
  code: number | null;
  ended: () => void;
}

let current: Current | null = null;
const realWrite = process.stdout.write.bind(process.stdout);
const realExit = process.exit.bind(process);

function capture(stream: NodeJS.WriteStream): void {
  stream.write = (chunk: string | Uint8Array): boolean => {
    // Nothing a script prints after its exit would have been printed.
    if (current && current.code === null)
      current.output += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    return true;
  };
}

/** The first exit of a list is its code; a catch block that exits again after it is not reached. */
function exitCode(code: number | string | null | undefined): number {
  const n = typeof code === 'number' ? code : Number(code ?? process.exitCode ?? 0);
  return Number.isInteger(n) ? n : 1;
}

process.exit = (code?: number | string | null): never => {
  const n = exitCode(code);
  if (current && current.code === null) {
    current.code = n;
    current.ended();
  }
  throw new ExitSignal(n);
};

/** An exit thrown inside a script's promise chain or timer ends only that list. */
function ignoreExit(err: unknown): void {
  if (err instanceof ExitSignal) return;
  if (current && current.code === null) {
    current.output += `error: ${errorMessage(err)}\n`;
    current.code = 1;
    current.ended();
  }
}
process.on('unhandledRejection', ignoreExit);
process.on('uncaughtException', ignoreExit);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function runOne(request: ParseRequest, index: number): Promise<ParseResult> {
  const started = performance.now();
  const file = path.resolve(request.file);
  process.argv = [process.argv[0], file, ...request.argv];
  process.exitCode = undefined;
  let ended = () => {};
  const done = new Promise<void>((resolve) => (ended = resolve));
  const run: Current = { output: '', code: null, ended };
  current = run;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ended();
  }, CASE_TIMEOUT_MS);
  const evaluated = import(`${pathToFileURL(file).href}?list=${index}`).then(
    // A script whose main is not awaited at the top level exits from its promise chain.
    () => Promise.race([done, sleep(100)]),
    ignoreExit,
  );
  await Promise.race([done, evaluated]);
  clearTimeout(timer);
  // A script that returns without exiting: the process would end with its exitCode.
  if (run.code === null && !timedOut) run.code = exitCode(process.exitCode);
  current = null;
  return { ...request, code: run.code, output: run.output, ms: performance.now() - started };
}

async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}

async function main(): Promise<void> {
  const plan: unknown = JSON.parse(await readStdin());
  if (!Array.isArray(plan) || !plan.every(isParseRequest))
    throw new Error('plan: [{ file, argv }]');
  capture(process.stdout);
  capture(process.stderr);
  const results: ParseResult[] = [];
  for (const [index, request] of plan.entries()) results.push(await runOne(request, index));
  realWrite(`${RESULT_MARK}${JSON.stringify(results)}\n`, () => realExit(0));
}

await main();
