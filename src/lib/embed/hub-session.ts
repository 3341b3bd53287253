// The comparison's Hub models as plain state: a reference typed in (or restored from the URL)
// is checked against this browser's copy; what is not kept is downloaded only after the reader
// agrees, once per reference in this tab, with progress and cancel. A loaded model is handed to
// the page, which adds it to the comparison.
import { broughtBase } from './brought-model.ts';
import {
  hubName,
  hubPlan,
  loadHubModel,
  parseHubInput,
  planCached,
  type HubDownloadDeps,
  type HubLoaded,
  type HubPlan,
  type HubProgress,
  type HubRef,
} from './hub-model.ts';
import { pickedModel } from './picked-files.ts';
import { errorMessage } from '../common/error-message.ts';
import { createStore, patch } from '../common/store.ts';

export type HubPhase =
  | { kind: 'idle' }
  | { kind: 'checking'; name: string }
  | { kind: 'asking'; plan: HubPlan }
  | { kind: 'downloading'; plan: HubPlan; progress: HubProgress | null };

export interface HubSessionState {
  phase: HubPhase;
  /** The last failure or cancel, named; cleared by the next action. */
  message: string;
  /** Each model loaded in this tab, with the files its first download recorded now. */
  loaded: readonly HubLoaded[];
}

export type HubSessionDeps = Omit<HubDownloadDeps, 'signal' | 'onProgress'>;

export class HubSession {
  private readonly state = createStore<HubSessionState>({
    phase: { kind: 'idle' },
    message: '',
    loaded: [],
  });
  readonly subscribe = this.state.subscribe;
  readonly getSnapshot = this.state.get;
  private readonly agreed = new Set<string>();
  /** References from the URL the reader declined or that failed: not asked again by themselves. */
  private readonly settled = new Set<string>();
  private wanted: HubRef[] = [];
  private controller: AbortController | null = null;

  constructor(
    private readonly deps: HubSessionDeps,
    private readonly onLoaded: (loaded: HubLoaded) => void,
  ) {}

  /** What the reader typed in "Add a Hub model". */
  add(text: string): void {
    let ref: HubRef;
    try {
      ref = parseHubInput(text);
    } catch (err) {
      patch(this.state, { message: errorMessage(err) });
      return;
    }
    this.settled.delete(hubName(ref));
    void this.open(ref);
  }

  /** The Hub references of the comparison's URL: each not in this page is opened in turn. */
  restore(refs: readonly HubRef[]): void {
    this.wanted = [...refs];
    this.next();
  }

  agree(): void {
    const phase = this.state.get().phase;
    if (phase.kind !== 'asking') return;
    this.agreed.add(phase.plan.name);
    void this.download(phase.plan);
  }

  decline(): void {
    const phase = this.state.get().phase;
    if (phase.kind !== 'asking') return;
    this.settled.add(phase.plan.name);
    this.state.set({ ...this.state.get(), phase: { kind: 'idle' }, message: '' });
    this.next();
  }

  cancel(): void {
    if (this.state.get().phase.kind !== 'downloading') return;
    this.controller?.abort();
  }

  /** Drops the downloaded files; the digests stay, so the next download is checked against them. */
  async forget(name: string): Promise<void> {
    const ref = parseHubInput(name);
    try {
      await this.deps.store.deleteFiles(broughtBase(ref));
      patch(this.state, {
        message: `${name}: its downloaded files are deleted from this browser; their digests stay, and a later download with other bytes is refused`,
      });
    } catch (err) {
      patch(this.state, { message: `${name}: ${errorMessage(err)}` });
    }
  }

  dispose(): void {
    this.controller?.abort();
    this.state.close();
  }

  private busy(): boolean {
    return this.state.get().phase.kind !== 'idle';
  }

  private next(): void {
    if (this.busy()) return;
    const ref = this.wanted.find((r) => !pickedModel(hubName(r)) && !this.settled.has(hubName(r)));
    if (ref) void this.open(ref);
  }

  private async open(ref: HubRef): Promise<void> {
    const name = hubName(ref);
    if (this.busy()) {
      patch(this.state, { message: `${name}: wait for the Hub model in progress, or cancel it` });
      return;
    }
    const done = pickedModel(name);
    if (done) {
      this.onLoaded({ entry: done, recorded: [] });
      return;
    }
    this.state.set({ ...this.state.get(), phase: { kind: 'checking', name }, message: '' });
    let plan: HubPlan;
    try {
      plan = await hubPlan(ref, this.deps.hub, this.deps.store);
    } catch (err) {
      this.fail(name, err);
      return;
    }
    if (planCached(plan) || this.agreed.has(name)) await this.download(plan);
    else patch(this.state, { phase: { kind: 'asking', plan } });
  }

  private async download(plan: HubPlan): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    patch(this.state, { phase: { kind: 'downloading', plan, progress: null }, message: '' });
    try {
      const loaded = await loadHubModel(parseHubInput(plan.name), {
        ...this.deps,
        signal: controller.signal,
        onProgress: (progress) => {
          if (!controller.signal.aborted) {
            patch(this.state, { phase: { kind: 'downloading', plan, progress } });
          }
        },
      });
      const others = this.state.get().loaded.filter((l) => l.entry.id !== loaded.entry.id);
      this.state.set({ phase: { kind: 'idle' }, message: '', loaded: [...others, loaded] });
      this.onLoaded(loaded);
    } catch (err) {
      this.fail(
        plan.name,
        controller.signal.aborted
          ? 'download cancelled; the files that arrived are kept with their digests'
          : err,
      );
    } finally {
      if (this.controller === controller) this.controller = null;
    }
  }

  private fail(name: string, err: unknown): void {
    this.settled.add(name);
    // The download's own messages already name the reference (and the file).
    const text = typeof err === 'string' ? err : errorMessage(err);
    const message = text.startsWith('hub:') ? text : `${name}: ${text}`;
    this.state.set({ ...this.state.get(), phase: { kind: 'idle' }, message });
    this.next();
  }
}
