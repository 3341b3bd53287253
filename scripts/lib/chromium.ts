import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

const CANDIDATES = [
  process.env.MEMLENS_CHROMIUM,
  '/usr/bin/chromium',
  '/usr/bin/chromium-headless-shell',
  '/usr/bin/chromium-browser',
];

export function chromiumPath(): string {
  const found = CANDIDATES.find((p): p is string => !!p && existsSync(p));
  if (!found)
    throw new Error('No system Chromium: apt-get install -y chromium (or set MEMLENS_CHROMIUM)');
  return found;
}

const QUIET_FLAGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
  '--disable-dev-shm-usage',
];

export const WEBGPU_FLAGS = [
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-webgpu-adapter=swiftshader',
  '--use-angle=swiftshader',
  '--disable-vulkan-surface',
];

export async function launchChromium(opts: { webgpu?: boolean } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [...QUIET_FLAGS, ...(opts.webgpu ? WEBGPU_FLAGS : ['--disable-gpu'])],
  });
}

export interface PageWatch {
  /** Every URL the page asked for, across all frames and workers. */
  urls: string[];
  consoleErrors: string[];
  foreignRequests(origin: string): string[];
}

/** Records requests and console errors; a test asserts on both at its end. */
export function watchPage(page: Page): PageWatch {
  const urls: string[] = [];
  const consoleErrors: string[] = [];
  page.context().on('request', (req) => urls.push(req.url()));
  page.on('console', (msg) => {
    if (msg.type() === 'error') consoleErrors.push(msg.text());
  });
  page.on('pageerror', (err) => consoleErrors.push(`pageerror: ${err.message}`));
  return {
    urls,
    consoleErrors,
    foreignRequests(origin: string): string[] {
      return urls.filter(
        (u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:') && !u.startsWith('blob:'),
      );
    },
  };
}
