/** The rows a virtual grid draws: those in view plus `overscan` either side, as [start, end). */
export function visibleRows(
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  total: number,
  overscan = 10,
): { start: number; end: number } {
  if (total <= 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const shown = Math.ceil(Math.max(0, viewportHeight) / rowHeight) + 1;
  const start = Math.min(Math.max(0, first - overscan), total);
  const end = Math.min(total, first + shown + overscan);
  return { start, end: Math.max(start, end) };
}
