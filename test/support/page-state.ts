// States an e2e waits for, instead of a fixed pause.
import type { Page } from 'playwright-core';

/**
 * Every chart on the page has drawn or shown its error, and the count holds across two animation
 * frames (a page may add a chart once its query answers).
 */
export async function chartsSettled(page: Page, timeout = 60_000): Promise<void> {
  await page.waitForFunction(
    () =>
      new Promise<boolean>((resolve) => {
        const settled = () =>
          [...document.querySelectorAll('[data-chart]')].every(
            (f) => f.querySelector('.chart-canvas[data-rendered="true"], .error') !== null,
          );
        const count = () => document.querySelectorAll('[data-chart]').length;
        const before = count();
        requestAnimationFrame(() =>
          requestAnimationFrame(() => resolve(settled() && count() === before)),
        );
      }),
    undefined,
    { timeout, polling: 100 },
  );
}

/** The page has laid itself out at the new width. */
export async function resizedTo(page: Page, width: number, height: number): Promise<void> {
  await page.setViewportSize({ width, height });
  await page.waitForFunction((w) => window.innerWidth === w, width);
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}
