import type { Component } from 'svelte';
import type { PageProps } from '../lib/app/page-props.ts';
import HomePage from './HomePage.svelte';
import InMindPage from './InMindPage.svelte';
import LoCoMoConvPage from './LoCoMoConvPage.svelte';
import MemUsePage from './MemUsePage.svelte';
import UtilMemPage from './UtilMemPage.svelte';
import EmbeddingsPage from './EmbeddingsPage.svelte';
import BenchmarksPage from './BenchmarksPage.svelte';
import MyDataPage from './MyDataPage.svelte';
import ReproducePage from './ReproducePage.svelte';
import PlaygroundPage from './PlaygroundPage.svelte';

export interface PageEntry {
  id: string;
  label: string;
  component: Component<PageProps>;
}

/** One line per page: the nav, the router and the URL all read this list. */
export const PAGES: PageEntry[] = [
  { id: 'home', label: 'Overview', component: HomePage },
  { id: 'inmind', label: 'InMind', component: InMindPage },
  { id: 'locomo-conv', label: 'LoCoMo-Conv', component: LoCoMoConvPage },
  { id: 'memuse', label: 'MemUse', component: MemUsePage },
  { id: 'utilmem', label: 'UtilMem', component: UtilMemPage },
  { id: 'embeddings', label: 'Embeddings', component: EmbeddingsPage },
  { id: 'benchmarks', label: 'Benchmarks', component: BenchmarksPage },
  { id: 'mydata', label: 'Your data', component: MyDataPage },
  { id: 'reproduce', label: 'Reproduce', component: ReproducePage },
  { id: 'playground', label: 'Playground', component: PlaygroundPage },
];

export function pageComponent(id: string): Component<PageProps> {
  return (PAGES.find((p) => p.id === id) ?? PAGES[0]).component;
}
