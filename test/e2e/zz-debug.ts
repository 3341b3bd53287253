import { launchChromium } from './browser.ts';
import { serveStatic } from './static-server.ts';
import { E2E_OUT } from './site.ts';
const server = await serveStatic({ root: E2E_OUT, base: '/memlens/' });
const browser = await launchChromium();
const context = await browser.newContext();
const page = await context.newPage();
page.on('console', (m) => m.type() === 'error' && console.log('console', m.type(), m.text().slice(0, 300)));
page.on('pageerror', (m) => console.log('pageerror', m.message));
await page.goto(`${server.url}#/home`);
await page.waitForSelector('[data-offline-state="ready"]', { timeout: 60000 });
await page.evaluate(() => (location.hash = '#/playground'));
for (let i = 0; i < 4; i++) {
  await page.waitForTimeout(3000);
  const st = await page.evaluate(async () => {
    const out: Record<string, string[]> = {};
    for (const k of await caches.keys()) out[k] = (await (await caches.open(k)).keys()).map((r) => r.url).filter((u) => !u.includes('/assets/'));
    return {
      cells: Array.from(document.querySelectorAll('[data-playground-ranks] td')).map((t) => t.textContent),
      status: Array.from(document.querySelectorAll('.playground [role=status], .playground .error')).map((t) => t.textContent),
      caches: Object.fromEntries(Object.entries(out).map(([k, v]) => [k, k.includes('precache') ? [String(v.length)] : v])),
    };
  });
  console.log(JSON.stringify(st));
}
console.log(server.requests.filter((r) => r.includes('models')));
await browser.close();
await server.close();
