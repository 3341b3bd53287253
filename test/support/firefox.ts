// Debian's firefox-esr driven over WebDriver BiDi (puppeteer-core; never a browser download), with
// the same watch the Chromium e2e keep: every URL asked for, console errors and page errors.
import { existsSync } from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

const CANDIDATES = [process.env.MEMLENS_FIREFOX, '/usr/bin/firefox-esr', '/usr/bin/firefox'];

export function firefoxPath(): string {
  const found = CANDIDATES.find((p): p is string => !!p && existsSync(p));
  if (!found)
    throw new Error('No system Firefox: apt-get install -y firefox-esr (or set MEMLENS_FIREFOX)');
  return found;
}

export function launchFirefox(): Promise<Browser> {
  return puppeteer.launch({
    browser: 'firefox',
    protocol: 'webDriverBiDi',
    executablePath: firefoxPath(),
    headless: true,
    extraPrefsFirefox: {
      // Nothing of Firefox's own reaches the network: no updates, telemetry or captive portal.
      'app.update.enabled': false,
      'browser.shell.checkDefaultBrowser': false,
      'datareporting.policy.dataSubmissionEnabled': false,
      'network.captive-portal-service.enabled': false,
      'network.connectivity-service.enabled': false,
      'toolkit.telemetry.enabled': false,
    },
  });
}

export interface FirefoxWatch {
  urls: string[];
  errors: string[];
  /** Requests to none of `origins` (data: and blob: URLs are the page's own). */
  foreignRequests(origins: readonly string[]): string[];
}

export function watchFirefoxPage(page: Page): FirefoxWatch {
  const urls: string[] = [];
  const errors: string[] = [];
  page.on('request', (req) => urls.push(req.url()));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${String(err)}`));
  return {
    urls,
    errors,
    foreignRequests: (origins) =>
      urls.filter(
        (u) =>
          !origins.some((o) => u.startsWith(`${o}/`)) &&
          !u.startsWith('data:') &&
          !u.startsWith('blob:'),
      ),
  };
}
