// Bytes of a model load, summed over its files, from transformers.js's per-file progress events:
// what the page shows while MiniLM's 90 MB (site) or a Hub download arrives.
import { formatBytes } from '../common/format-bytes.ts';

export interface LoadProgress {
  /** Bytes received so far, over every file that has reported a size. */
  loaded: number;
  /** Sum of the reported sizes; 0 while no file has said how big it is. */
  total: number;
  /** The file that reported last. */
  file: string;
}

interface FileBytes {
  loaded: number;
  total: number;
}

/** The fields of a transformers.js ProgressInfo this tracker reads. */
export interface ProgressEvent {
  status: string;
  file?: string;
  loaded?: number;
  total?: number;
}

export class LoadProgressTracker {
  private readonly files = new Map<string, FileBytes>();
  private last = '';

  /** Takes one event; returns the new totals, or null when the event carries no bytes. */
  update(event: ProgressEvent): LoadProgress | null {
    const { file } = event;
    if (typeof file !== 'string') return null;
    if (event.status === 'progress' && typeof event.loaded === 'number') {
      const total = typeof event.total === 'number' && event.total > 0 ? event.total : 0;
      this.files.set(file, { loaded: event.loaded, total });
    } else if (event.status === 'done') {
      const known = this.files.get(file);
      if (!known) return null;
      this.files.set(file, { loaded: known.total || known.loaded, total: known.total });
    } else return null;
    this.last = file;
    return this.snapshot();
  }

  snapshot(): LoadProgress {
    let loaded = 0;
    let total = 0;
    for (const f of this.files.values()) {
      loaded += f.loaded;
      total += f.total;
    }
    return { loaded, total, file: this.last };
  }
}

/** "12.0 MiB of 86.2 MiB (onnx/model.onnx)", as every page's load line says it. */
export function describeLoad(progress: LoadProgress): string {
  const total = progress.total > 0 ? ` of ${formatBytes(progress.total)}` : '';
  return `${formatBytes(progress.loaded)}${total} (${progress.file})`;
}
