import type { Component } from 'svelte';
import type { PageProps } from '../lib/app/page-props.ts';
import HomePage from './HomePage.svelte';
import InMindPage from './InMindPage.svelte';
import EmbeddingsPage from './EmbeddingsPage.svelte';

export interface PageEntry {
  id: string;
  label: string;
  component: Component<PageProps>;
}

/** One line per page: the nav, the router and the URL all read this list. */
export const PAGES: PageEntry[] = [
  { id: 'home', label: 'Overview', component: HomePage },
  { id: 'inmind', label: 'InMind', component: InMindPage },
  { id: 'embeddings', label: 'Embeddings', component: EmbeddingsPage },
];

export function pageComponent(id: string): Component<PageProps> {
  return (PAGES.find((p) => p.id === id) ?? PAGES[0]).component;
}
