import { describe, expect, it } from 'vitest';
import { SelectCommit, isBrowseKey, type KeyInput } from '../../../src/lib/app/confirmed-select.ts';

const key = (k: string, mods: Partial<KeyInput> = {}): KeyInput => ({
  key: k,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  ...mods,
});

describe('SelectCommit: a keyboard change waits for Enter, Escape or leaving', () => {
  it('does not apply an ArrowDown change, and applies it on Enter', () => {
    const s = new SelectCommit('bm25');
    expect(s.keydown(key('ArrowDown'))).toEqual({ kind: 'none' });
    expect(s.change('minilm')).toEqual({ kind: 'none' });
    expect(s.pending).toBe('minilm');
    expect(s.keydown(key('ArrowDown'))).toEqual({ kind: 'none' });
    expect(s.change('bge-small')).toEqual({ kind: 'none' });
    expect(s.keydown(key('Enter'))).toEqual({ kind: 'commit', value: 'bge-small' });
    expect(s.pending).toBeNull();
  });

  it('goes back on Escape, and applies nothing when browsing returns to the applied value', () => {
    const s = new SelectCommit('bm25');
    s.keydown(key('ArrowDown'));
    s.change('minilm');
    expect(s.keydown(key('Escape'))).toEqual({ kind: 'revert', value: 'bm25' });
    expect(s.blur()).toEqual({ kind: 'none' });
    s.keydown(key('ArrowDown'));
    s.change('minilm');
    s.keydown(key('ArrowUp'));
    s.change('bm25');
    expect(s.pending).toBeNull();
    expect(s.keydown(key('Enter'))).toEqual({ kind: 'none' });
  });

  it('applies the browsed value when the select loses focus, as Firefox does', () => {
    const s = new SelectCommit('bm25');
    s.keydown(key('m'));
    s.change('minilm');
    expect(s.blur()).toEqual({ kind: 'commit', value: 'minilm' });
    expect(s.blur()).toEqual({ kind: 'none' });
  });

  it('applies a pointer pick, or a pick from the opened list, at once', () => {
    const s = new SelectCommit('bm25');
    s.pointer();
    expect(s.change('minilm')).toEqual({ kind: 'commit', value: 'minilm' });
    s.keydown(key('ArrowDown', { altKey: true }));
    expect(s.change('bge-small')).toEqual({ kind: 'commit', value: 'bge-small' });
    s.keydown(key(' '));
    expect(s.change('bm25')).toEqual({ kind: 'commit', value: 'bm25' });
    s.keydown(key('ArrowDown'));
    s.pointer();
    expect(s.change('minilm')).toEqual({ kind: 'commit', value: 'minilm' });
  });

  it('takes a value set from outside as the applied one', () => {
    const s = new SelectCommit('bm25');
    s.reset('minilm');
    s.keydown(key('ArrowDown'));
    s.change('bm25');
    expect(s.keydown(key('Escape'))).toEqual({ kind: 'revert', value: 'minilm' });
  });
});

describe('isBrowseKey', () => {
  it('counts arrows, Home/End, PageUp/Down and type-ahead letters; not Space, Enter or chords', () => {
    for (const k of ['ArrowDown', 'ArrowUp', 'Home', 'End', 'PageDown', 'b'])
      expect(isBrowseKey(key(k)), k).toBe(true);
    for (const k of [' ', 'Enter', 'Tab', 'Escape']) expect(isBrowseKey(key(k)), k).toBe(false);
    expect(isBrowseKey(key('ArrowDown', { altKey: true }))).toBe(false);
    expect(isBrowseKey(key('c', { ctrlKey: true }))).toBe(false);
  });
});
