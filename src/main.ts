import { mount } from 'svelte';
import App from './App.svelte';
import { offlineClient } from './service-worker/client.ts';
import './styles.css';

const target = document.getElementById('app');
if (!target) throw new Error('MemLens: #app element missing');

// Built sites only (the dev server has HMR; `PROD` is false in builds made under Vitest).
// After `load`, so precaching does not compete with the first page's own downloads.
if (!import.meta.hot) {
  window.addEventListener('load', () => void offlineClient.register(), { once: true });
}

export default mount(App, { target });
