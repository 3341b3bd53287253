// Vega-Lite draws an interval selection's brush as two rect marks it names `<param>_brush_bg` and
// `<param>_brush`, with no description: screen readers get unnamed graphics (axe: svg-img-alt).
// They only decorate, so the compiled Vega spec marks them aria: false before it is parsed.
import type { Mark, Spec } from 'vega';

const BRUSH_MARK = /_brush(_bg)?$/;

function quiet(marks: readonly Mark[]): Mark[] {
  return marks.map((mark) => {
    const nested = 'marks' in mark && mark.marks ? { marks: quiet(mark.marks) } : {};
    const hidden = mark.name && BRUSH_MARK.test(mark.name) ? { aria: false } : {};
    return { ...mark, ...nested, ...hidden };
  });
}

/** The spec with every brush mark (at any depth) kept out of the accessibility tree. */
export function quietBrushMarks(spec: Spec): Spec {
  return spec.marks ? { ...spec, marks: quiet(spec.marks) } : spec;
}
