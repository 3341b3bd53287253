// What the offline indicator says, from the service worker's report.
import type { OfflineReport } from './messages.ts';
import type { PrecacheGroup } from './precache.ts';
import type { SaveProgress } from './save-models.ts';
import { formatBytes } from '../common/format-bytes.ts';

export type OfflinePhase = 'off' | 'unsupported' | 'installing' | 'ready' | 'error';

export interface OfflineSnapshot {
  phase: OfflinePhase;
  progress: { done: number; total: number } | null;
  report: OfflineReport | null;
  /** A newer build is installed and waits for this page to let it take over. */
  updateReady: boolean;
  error: string;
  /** navigator.onLine, false also while this page is the saved copy the network failed to replace. */
  online: boolean;
  /** Save for offline of the models, while it runs. */
  modelSave: SaveProgress | null;
  /** Why the last save of the models stopped ('' when it finished or was cancelled). */
  modelSaveError: string;
}

export interface OfflineItem {
  label: string;
  detail: string;
  ready: boolean;
}

export function headline(s: OfflineSnapshot): string {
  if (!s.online) return s.phase === 'ready' ? 'Offline: using the saved copy' : 'Offline';
  switch (s.phase) {
    case 'off':
      return 'Offline use: off in development';
    case 'unsupported':
      return 'Offline use: not supported here';
    case 'error':
      return 'Offline use: unavailable';
    case 'installing':
      return s.progress
        ? `Saving for offline: ${s.progress.done} of ${s.progress.total} files`
        : 'Saving for offline…';
    case 'ready':
      return 'Available offline';
  }
}

/** Bytes of the site's models not saved on this device yet (0 when none or all are saved). */
export function unsavedModelBytes(report: OfflineReport | null): number {
  return (report?.models ?? []).reduce((s, m) => s + m.bytes - m.cachedBytes, 0);
}

/** What the header adds after the headline about the models: '' where the site serves none. */
export function modelsLine(s: OfflineSnapshot): string {
  if (s.modelSave) {
    const { doneBytes, totalBytes } = s.modelSave;
    const pct = totalBytes > 0 ? Math.floor((100 * doneBytes) / totalBytes) : 100;
    return `saving models ${pct}%`;
  }
  const models = s.report?.models ?? [];
  if (models.length === 0 || s.phase !== 'ready') return '';
  return models.every((m) => m.cachedFiles === m.files) ? 'models saved' : 'models not saved';
}

const GROUP_LABELS: Record<PrecacheGroup, string> = {
  shell: 'App, pages and charts',
  engine: 'DuckDB and ONNX runtimes (WASM)',
  results: 'Released results',
  data: 'Bundled benchmark files',
};

export function offlineItems(report: OfflineReport): OfflineItem[] {
  const items: OfflineItem[] = Object.entries(report.groups)
    .filter(([, g]) => g.files > 0)
    .map(([group, g]) => ({
      label: GROUP_LABELS[group as PrecacheGroup],
      detail: `${g.cachedFiles} of ${g.files} files, ${formatBytes(g.bytes)}`,
      ready: g.cachedFiles === g.files,
    }));
  for (const m of report.models) {
    items.push({
      label: `Model ${m.id}`,
      detail: m.ready
        ? `saved (${m.cachedFiles} of ${m.files} files)`
        : `not saved: Save for offline keeps it (${formatBytes(m.bytes - m.cachedBytes)} to go), or it is kept once used`,
      ready: m.ready,
    });
  }
  if (report.upstream.cached.length > 0) {
    items.push({
      label: 'Upstream benchmark files',
      detail: `${report.upstream.cached.length} saved after first use`,
      ready: true,
    });
  }
  return items;
}
