import { describe, expect, it } from 'vitest';
import { RowHeights } from '../../../src/lib/datasets/turn-window.ts';
import {
  conversationItems,
  itemIndexOfTurn,
  turnLink,
  type TurnView,
} from '../../../src/lib/datasets/conversation-items.ts';

const turn = (i: number, session: number): TurnView => ({
  session,
  dia_id: `D${session}:${i}`,
  turn_index: i,
  speaker: 'A',
  date: `day ${session}`,
  text: 'x',
  caption: null,
  img_url: null,
});

describe('RowHeights', () => {
  it('maps offsets to rows and back', () => {
    const h = new RowHeights([10, 20, 30, 40]);
    expect([0, 1, 2, 3, 4].map((i) => h.offsetOf(i))).toEqual([0, 10, 30, 60, 100]);
    expect(h.total()).toBe(100);
    expect([0, 9.9, 10, 29, 30, 99, 500].map((y) => h.indexAt(y))).toEqual([0, 0, 1, 1, 2, 3, 3]);
  });

  it('uses measured heights once known', () => {
    const h = new RowHeights([10, 10, 10]);
    expect(h.set(1, 50)).toBe(true);
    expect(h.set(1, 50.2)).toBe(false);
    expect(h.offsetOf(2)).toBe(60);
    expect(h.total()).toBe(70);
  });

  it('renders a small window of a 600-row list', () => {
    const h = new RowHeights(Array.from({ length: 600 }, () => 60));
    const r = h.range(6000, 600, 300);
    expect(r).toEqual({ start: 95, end: 116 });
    expect(r.end - r.start).toBeLessThan(600 / 20);
    expect(h.range(0, 600, 300)).toEqual({ start: 0, end: 16 });
    expect(h.range(1e9, 600, 300).end).toBe(600);
    expect(new RowHeights([]).range(0, 100, 10)).toEqual({ start: 0, end: 0 });
  });
});

describe('conversation items', () => {
  it('puts a header before each session and finds turns', () => {
    const items = conversationItems([turn(0, 1), turn(1, 1), turn(2, 2)]);
    expect(items.map((i) => i.key)).toEqual(['s1', 't0', 't1', 's2', 't2']);
    expect(items[0]).toMatchObject({ kind: 'session', session: 1, date: 'day 1', turns: 2 });
    expect(itemIndexOfTurn(items, 'D2:2')).toBe(4);
    expect(itemIndexOfTurn(items, 'nope')).toBe(-1);
  });

  it('links to a turn in context with the viewer’s URL parameters', () => {
    expect(turnLink('locomo', 'conv-26', 'D1:3', 'conv-26:q0')).toBe(
      '#/benchmarks?conv=conv-26&dataset=locomo&query=conv-26%3Aq0&turn=D1%3A3',
    );
  });
});
