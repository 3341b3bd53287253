import { describe, expect, it } from 'vitest';
import {
  focusFollowsReader,
  focusMainHeading,
  type FocusableHeading,
  type HeadingHost,
} from '../../../src/lib/app/focus-heading.ts';

class Heading implements FocusableHeading {
  attrs = new Map<string, string>();
  focused = 0;
  hasAttribute(name: string): boolean {
    return this.attrs.has(name);
  }
  setAttribute(name: string, value: string): void {
    this.attrs.set(name, value);
  }
  focus(): void {
    this.focused++;
  }
}

/** A page whose h1 appears after `frames` frames. */
function lazyPage(frames: number): {
  host: HeadingHost;
  heading: Heading;
  tick: () => Promise<void>;
} {
  const heading = new Heading();
  let elapsed = 0;
  return {
    heading,
    host: { querySelector: (s) => (s === 'h1' && elapsed >= frames ? heading : null) },
    tick: async () => void elapsed++,
  };
}

describe('focusMainHeading', () => {
  it("waits for the lazily loaded page's h1, makes it focusable and focuses it", async () => {
    const page = lazyPage(3);
    expect(await focusMainHeading(page.host, page.tick)).toBe(true);
    expect(page.heading.focused).toBe(1);
    expect(page.heading.attrs.get('tabindex')).toBe('-1');
  });

  it("keeps a heading's own tabindex", async () => {
    const page = lazyPage(0);
    page.heading.setAttribute('tabindex', '0');
    await focusMainHeading(page.host, page.tick);
    expect(page.heading.attrs.get('tabindex')).toBe('0');
  });

  it('gives up after the bound, or once the reader moved on', async () => {
    const late = lazyPage(10);
    expect(await focusMainHeading(late.host, late.tick, () => true, 5)).toBe(false);
    expect(late.heading.focused).toBe(0);
    const page = lazyPage(2);
    let frames = 0;
    const tick = async () => {
      frames++;
      await page.tick();
    };
    expect(await focusMainHeading(page.host, tick, () => frames < 1)).toBe(false);
    expect(page.heading.focused).toBe(0);
  });
});

describe('focusFollowsReader', () => {
  const body = { name: 'body' };
  const link = { name: 'nav link' };
  const input = { name: 'an input' };

  it('moves focus only after a link the reader activated, not a typed URL or a script', () => {
    expect(focusFollowsReader(body, body, () => body)).toBeNull();
    expect(focusFollowsReader(null, body, () => null)).toBeNull();
    expect(focusFollowsReader(link, body, () => link)).not.toBeNull();
  });

  it('holds while focus stays on the link or fell to the body; not once it went elsewhere', () => {
    let active: object = link;
    const untouched = focusFollowsReader(link, body, () => active);
    expect(untouched?.()).toBe(true);
    active = body;
    expect(untouched?.()).toBe(true);
    active = input;
    expect(untouched?.()).toBe(false);
  });
});
