// `npm start` as a reader runs it: the real npm script (its prestart included), the dev server with
// vite.config.ts and every plugin, then every nav route in Chromium.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/site-build.ts';
import { navEntries, type PageKind } from '../../src/lib/app/nav.ts';
import { freePort } from '../support/free-port.ts';
import { useHarness } from './harness.ts';

let server: ChildProcess;
let origin = '';
let output = '';
const harness = useHarness();

const CHARTED: ReadonlySet<PageKind> = new Set(['home', 'inmind', 'paper']);

/** Resolves with the dev server's URL once it prints it; rejects if the command ends first. */
function untilListening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /Local:\s+(http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
      if (found) resolve(found[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${output}`)));
  });
}

beforeAll(async () => {
  const port = await freePort();
  // A reader's shell: the e2e build's MEMLENS_BASE (set in this process) is not theirs.
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' };
  delete env.MEMLENS_BASE;
  server = spawn('npm', ['start', '--', '--port', String(port), '--strictPort'], {
    cwd: repoRoot,
    env,
    detached: true,
  });
  origin = await untilListening(server);
});

afterAll(async () => {
  // npm runs vite in a child of its own: end the whole group.
  if (server?.pid) process.kill(-server.pid, 'SIGTERM');
});

describe('npm start (the dev server)', () => {
  it('renders every nav route with its content, no page error and no request off the origin', async () => {
    const { page, context, watch } = await harness.tab({ serviceWorkers: 'block' });
    for (const entry of navEntries()) {
      // A fresh dev server transforms every module on the first visit: past 30 s at load 20.
      await page.goto(`${origin}/#/${entry.id === 'home' ? '' : entry.id}`, { timeout: 120_000 });
      // A blank page throws on load: its error is the message, not a timeout.
      await page.waitForSelector('main h1', { timeout: 120_000 }).catch((err: unknown) => {
        throw new Error(
          `${entry.id}: no heading; page errors: ${watch.consoleErrors.join(' | ')}`,
          {
            cause: err,
          },
        );
      });
      await page.waitForSelector('[data-sql-state="ready"]', { timeout: 120_000 });
      // The Overview and every paper page draw their released tables; the tools draw nothing unasked.
      if (CHARTED.has(entry.kind)) {
        await page
          .locator('.chart-canvas[data-rendered="true"]')
          .first()
          .waitFor({ timeout: 60_000 });
      }
      expect(await page.locator('main').innerText(), entry.id).not.toMatch(
        /Catalog Error|does not provide an export/,
      );
    }
    expect(watch.consoleErrors).toEqual([]);
    expect(watch.foreignRequests(origin)).toEqual([]);
    await context.close();
  });

  it('printed no third-party source-map warnings while serving those routes', () => {
    expect(output).not.toMatch(/sourcemap|source map/i);
  });
});
