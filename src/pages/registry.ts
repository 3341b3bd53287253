import type { Component } from 'svelte';
import type { PageProps } from '../lib/app/page-props.ts';
import { navEntries, type NavEntry, type PageKind } from '../lib/app/nav.ts';
import HomePage from './HomePage.svelte';
import InMindPage from './InMindPage.svelte';

type PageModule = { default: Component<PageProps> };

export interface PageEntry extends NavEntry {
  load: () => Promise<PageModule>;
}

const eager = (component: Component<PageProps>) => () => Promise.resolve({ default: component });

/** The component per kind of page; pages other than the first two load on demand. */
const LOADERS: Record<PageKind, () => Promise<PageModule>> = {
  home: eager(HomePage),
  inmind: eager(InMindPage),
  paper: () => import('./PaperPage.svelte'),
  embeddings: () => import('./EmbeddingsPage.svelte'),
  benchmarks: () => import('./BenchmarksPage.svelte'),
  mydata: () => import('../features/mydata/MyDataPage.svelte'),
  reproduce: () => import('./ReproducePage.svelte'),
  playground: () => import('../features/playground/PlaygroundPage.svelte'),
  console: () => import('../features/console/ConsolePage.svelte'),
};

/** One entry per page: the nav, the router and the URL all read this list. */
export const PAGES: PageEntry[] = navEntries().map((e) => ({ ...e, load: LOADERS[e.kind] }));

export async function loadPage(id: string): Promise<Component<PageProps>> {
  const entry = PAGES.find((p) => p.id === id) ?? PAGES[0];
  return (await entry.load()).default;
}
