import { launchChromium } from './browser.ts';
import { serveStatic } from './static-server.ts';
import { E2E_OUT } from './site.ts';
const server = await serveStatic({ root: E2E_OUT, base: '/memlens/' });
const browser = await launchChromium();
const context = await browser.newContext();
context.on('serviceworker', (w) => console.log('SW target', w.url()));
const page = await context.newPage();
page.on('console', (m) => console.log('console', m.type(), m.text()));
await page.goto(`${server.url}#/home`);
for (let i = 0; i < 12; i++) {
  await page.waitForTimeout(2500);
  const st = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    return {
      state: document.querySelector('[data-offline-state]')?.getAttribute('data-offline-state'),
      headline: document.querySelector('.offline-headline')?.textContent,
      reg: reg ? { active: reg.active?.state, installing: reg.installing?.state, waiting: reg.waiting?.state, scope: reg.scope } : null,
      controller: !!navigator.serviceWorker.controller,
      caches: await caches.keys(),
    };
  });
  console.log(JSON.stringify(st));
}
for (const w of context.serviceWorkers()) console.log('worker', w.url());
console.log(server.requests.filter((r) => !r.includes('/assets/')).slice(0, 40));
await browser.close();
await server.close();
