// A select whose change starts long work (a run) must not start it while the reader browses its
// options with the keyboard: Chromium and Safari on Windows/Linux fire `change` on every ArrowDown
// of a closed select. As Firefox does, a keyboard change waits until Enter or leaving the select
// (Escape goes back); a pick with the pointer, or from the opened list, applies at once.

/** Keys that step through a closed select's options without opening it. */
const BROWSE_KEYS = new Set([
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'PageUp',
  'PageDown',
]);

export interface KeyInput {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

/** What the select should do after an event. */
export type SelectAction =
  { kind: 'none' } | { kind: 'commit'; value: string } | { kind: 'revert'; value: string };

const NONE: SelectAction = { kind: 'none' };

/** Typing a letter (type-ahead) or an arrow steps through the options; Alt+Arrow opens the list. */
export function isBrowseKey(e: KeyInput): boolean {
  if (e.altKey || e.ctrlKey || e.metaKey) return false;
  return BROWSE_KEYS.has(e.key) || (e.key.length === 1 && e.key !== ' ');
}

/** The state machine, free of the DOM: what is applied, what is only browsed. */
export class SelectCommit {
  private browsing = false;
  private pendingValue: string | null = null;

  constructor(private committed: string) {}

  /** The value browsed to and not yet applied; null when none. */
  get pending(): string | null {
    return this.pendingValue;
  }

  /** The select got focus (or its value was set from outside): that value is the applied one. */
  reset(value: string): void {
    this.committed = value;
    this.pendingValue = null;
    this.browsing = false;
  }

  keydown(e: KeyInput): SelectAction {
    if (e.key === 'Enter' && this.pendingValue !== null) return this.apply(this.pendingValue);
    if (e.key === 'Escape' && this.pendingValue !== null) {
      this.pendingValue = null;
      return { kind: 'revert', value: this.committed };
    }
    this.browsing = isBrowseKey(e);
    return NONE;
  }

  /** A pointer press: whatever follows is a pick, not keyboard browsing. */
  pointer(): void {
    this.browsing = false;
  }

  change(value: string): SelectAction {
    if (this.browsing) {
      this.browsing = false;
      this.pendingValue = value === this.committed ? null : value;
      return NONE;
    }
    return this.apply(value);
  }

  /** Leaving the select applies what was browsed to, as Firefox does. */
  blur(): SelectAction {
    this.browsing = false;
    return this.pendingValue === null ? NONE : this.apply(this.pendingValue);
  }

  private apply(value: string): SelectAction {
    this.pendingValue = null;
    if (value === this.committed) return NONE;
    this.committed = value;
    return { kind: 'commit', value };
  }
}

export interface ConfirmedSelectOptions {
  commit: (value: string) => void;
  /** Told the browsed value (or null) so the page can say "Enter to apply". */
  onpending?: (value: string | null) => void;
}

/** The Svelte action: `<select use:confirmedSelect={{ commit }}>` instead of `onchange`. */
export function confirmedSelect(node: HTMLSelectElement, initial: ConfirmedSelectOptions) {
  let options = initial;
  const machine = new SelectCommit(node.value);
  let told: string | null = null;
  const act = (action: SelectAction, event?: Event) => {
    if (action.kind === 'commit') options.commit(action.value);
    if (action.kind === 'revert') node.value = action.value;
    if (action.kind !== 'none') event?.preventDefault();
    if (machine.pending !== told) options.onpending?.((told = machine.pending));
  };
  // A select removed while focused (its page left) is blurred in the middle of the DOM update:
  // what leaving it applies waits for the update to end, and is dropped if the select is gone.
  const blur = () =>
    queueMicrotask(() => {
      if (node.isConnected) act(machine.blur());
    });
  const listeners: [string, (e: Event) => void][] = [
    ['focus', () => machine.reset(node.value)],
    ['pointerdown', () => machine.pointer()],
    ['keydown', (e) => e instanceof KeyboardEvent && act(machine.keydown(e), e)],
    ['change', () => act(machine.change(node.value))],
    ['blur', blur],
  ];
  for (const [type, listener] of listeners) node.addEventListener(type, listener);
  return {
    update(next: ConfirmedSelectOptions) {
      options = next;
    },
    destroy() {
      for (const [type, listener] of listeners) node.removeEventListener(type, listener);
    },
  };
}
