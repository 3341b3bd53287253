// After a move to another page, focus goes to that page's main heading, as a router should: a
// keyboard or screen-reader user lands on the new content, not back in the nav. Pages load
// lazily, so the heading is waited for, a frame at a time, up to a bound.

/** What is asked of a heading: `HTMLElement` fits. */
export interface FocusableHeading {
  hasAttribute(name: string): boolean;
  setAttribute(name: string, value: string): void;
  focus(options?: FocusOptions): void;
}

export interface HeadingHost {
  querySelector(selector: string): FocusableHeading | null;
}

/**
 * Whether a change of page should move focus, and for how long: only when the reader had
 * something focused (the link they activated), not on a typed URL or a script's hash change; and
 * only while focus stays there (or fell to the body, the link having gone with its page).
 */
export function focusFollowsReader(
  from: unknown,
  body: unknown,
  active: () => unknown,
): (() => boolean) | null {
  if (from === null || from === undefined || from === body) return null;
  return () => {
    const now = active();
    return now === from || now === body || now === null;
  };
}

/** About two seconds at 60 frames a second. */
const MAX_FRAMES = 120;

/**
 * Focuses the first `h1` in `host` once it exists (made focusable, not tabbable). Resolves true
 * when it did; false when none came within `maxFrames` or `stillWanted` turned false (the reader
 * moved on, or focus went elsewhere meanwhile).
 */
export async function focusMainHeading(
  host: HeadingHost,
  nextFrame: () => Promise<unknown>,
  stillWanted: () => boolean = () => true,
  maxFrames = MAX_FRAMES,
): Promise<boolean> {
  for (let frame = 0; frame <= maxFrames; frame++) {
    if (!stillWanted()) return false;
    const heading = host.querySelector('h1');
    if (heading) {
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
      return true;
    }
    await nextFrame();
  }
  return false;
}
