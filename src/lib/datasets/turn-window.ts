/** Half-open range of item indices to render. */
export interface WindowRange {
  start: number;
  end: number;
}

/**
 * Row heights for a virtual list: estimates until a row has been measured, with prefix sums so
 * the offset of any row and the row at any scroll position are cheap.
 */
export class RowHeights {
  private readonly heights: Float64Array;
  private readonly offsets: Float64Array;
  private dirty = true;

  constructor(estimates: readonly number[]) {
    this.heights = Float64Array.from(estimates);
    this.offsets = new Float64Array(estimates.length + 1);
  }

  get count(): number {
    return this.heights.length;
  }

  heightOf(index: number): number {
    return this.heights[index] ?? 0;
  }

  /** Records a measured height; true when it changed the layout. */
  set(index: number, height: number): boolean {
    if (index < 0 || index >= this.heights.length || Math.abs(this.heights[index] - height) < 0.5) {
      return false;
    }
    this.heights[index] = height;
    this.dirty = true;
    return true;
  }

  private sums(): Float64Array {
    if (this.dirty) {
      for (let i = 0; i < this.heights.length; i++)
        this.offsets[i + 1] = this.offsets[i] + this.heights[i];
      this.dirty = false;
    }
    return this.offsets;
  }

  offsetOf(index: number): number {
    return this.sums()[Math.max(0, Math.min(index, this.heights.length))];
  }

  total(): number {
    return this.sums()[this.heights.length];
  }

  /** The row under pixel `y` (clamped to the list). */
  indexAt(y: number): number {
    const offsets = this.sums();
    let lo = 0;
    let hi = this.heights.length - 1;
    if (hi < 0) return 0;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (offsets[mid] <= y) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Rows that intersect the viewport widened by `overscan` pixels on each side. */
  range(scrollTop: number, viewportHeight: number, overscan: number): WindowRange {
    if (this.heights.length === 0) return { start: 0, end: 0 };
    const start = this.indexAt(Math.max(0, scrollTop - overscan));
    const end = this.indexAt(scrollTop + viewportHeight + overscan) + 1;
    return { start, end: Math.min(end, this.heights.length) };
  }
}

/** Pixel height guess for a turn before it is measured: header line plus wrapped text lines. */
export function estimateTurnHeight(
  textLength: number,
  extraLines: number,
  charsPerLine: number,
): number {
  const lines = Math.max(1, Math.ceil(textLength / Math.max(20, charsPerLine))) + extraLines;
  return 34 + lines * 22;
}

export const SESSION_HEADER_HEIGHT = 44;
