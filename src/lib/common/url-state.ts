/** View state lives in the hash (`#/page?k=v`), so any static host and subpath can serve it. */
export interface ViewState {
  page: string;
  params: Record<string, string>;
}

export function parseHash(hash: string, defaultPage = 'home'): ViewState {
  const body = hash.replace(/^#\/?/, '');
  const [pagePart, query = ''] = body.split('?', 2);
  const params: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(query)) params[k] = v;
  return { page: decodeURIComponent(pagePart) || defaultPage, params };
}

export function formatHash(state: ViewState): string {
  const entries = Object.entries(state.params)
    .filter(([, v]) => v !== '')
    .sort(([a], [b]) => a.localeCompare(b));
  const query = new URLSearchParams(entries).toString();
  return `#/${encodeURIComponent(state.page)}${query ? `?${query}` : ''}`;
}

export function withParams(state: ViewState, changes: Record<string, string | null>): ViewState {
  const params = { ...state.params };
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === '') delete params[k];
    else params[k] = v;
  }
  return { page: state.page, params };
}
