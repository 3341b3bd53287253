/** What every page component receives from the app shell (services come through context). */
export interface PageProps {
  /** The nav entry's id (a paper page finds its benchmark by it). */
  pageId: string;
  /** The page's view state, read from and written to the URL hash. */
  params: Record<string, string>;
  setParams: (changes: Record<string, string | null>, replace?: boolean) => void;
}

/** What a chart needs of its page's URL state. */
export type ChartUrlState = Pick<PageProps, 'params' | 'setParams'>;
