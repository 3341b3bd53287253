import type { Component } from 'svelte';
import type { PageProps } from '../lib/app/page-props.ts';
import HomePage from './HomePage.svelte';
import InMindPage from './InMindPage.svelte';

type PageModule = { default: Component<PageProps> };

export interface PageEntry {
  id: string;
  label: string;
  /** Pages other than the first two load on demand, keeping them out of the initial JS. */
  load: () => Promise<PageModule>;
}

const eager = (component: Component<PageProps>) => () => Promise.resolve({ default: component });

/** One line per page: the nav, the router and the URL all read this list. */
export const PAGES: PageEntry[] = [
  { id: 'home', label: 'Overview', load: eager(HomePage) },
  { id: 'inmind', label: 'InMind', load: eager(InMindPage) },
  { id: 'locomo-conv', label: 'LoCoMo-Conv', load: () => import('./LoCoMoConvPage.svelte') },
  { id: 'memuse', label: 'MemUse', load: () => import('./MemUsePage.svelte') },
  { id: 'utilmem', label: 'UtilMem', load: () => import('./UtilMemPage.svelte') },
  { id: 'embeddings', label: 'Embeddings', load: () => import('./EmbeddingsPage.svelte') },
  { id: 'benchmarks', label: 'Benchmarks', load: () => import('./BenchmarksPage.svelte') },
  { id: 'mydata', label: 'Your data', load: () => import('./MyDataPage.svelte') },
  { id: 'reproduce', label: 'Reproduce', load: () => import('./ReproducePage.svelte') },
  { id: 'playground', label: 'Playground', load: () => import('./PlaygroundPage.svelte') },
];

export async function loadPage(id: string): Promise<Component<PageProps>> {
  const entry = PAGES.find((p) => p.id === id) ?? PAGES[0];
  return (await entry.load()).default;
}
