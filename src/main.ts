import { mount } from 'svelte';
import App from './App.svelte';
import { offlineClient } from './service-worker/client.ts';
import { browserEngineOpener } from './browser/engine-opener.ts';
import { siteEmbedderHub } from './browser/embedder-hub.ts';
import { RESULTS_FILES } from './browser/site-assets.ts';
import { AppServices } from './lib/app/services.svelte.ts';
import { DataSession } from './lib/app/data-session.svelte.ts';
import { ALLOW_UPSTREAM, SITE_PINS } from './lib/offline/build-flags.ts';
import { SITE_INDEX_PATH } from './lib/offline/deploy-options.ts';
import './styles.css';

const target = document.getElementById('app');
if (!target) throw new Error('MemLens: #app element missing');

// Built sites only (the dev server has HMR; `PROD` is false in builds made under Vitest).
// After `load`, so precaching does not compete with the first page's own downloads.
if (!import.meta.hot) {
  window.addEventListener('load', () => void offlineClient.register(), { once: true });
}

// The composition root: the app's services and its data session, made once for the tab.
const services = new AppServices(document.baseURI, siteEmbedderHub);
const session = new DataSession(services, {
  openEngine: browserEngineOpener((urls) => offlineClient.evict(urls)),
  resultsFiles: RESULTS_FILES,
  allowUpstream: ALLOW_UPSTREAM,
  siteIndexPin: SITE_PINS[SITE_INDEX_PATH] ?? null,
  evict: (urls) => offlineClient.evict(urls),
  fetch: (input, init) => fetch(input, init),
});

export default mount(App, { target, props: { shell: { services, session } } });
