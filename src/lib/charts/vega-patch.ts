// Fixes to the Vega spec Vega-Lite compiles, applied before it is parsed. An interval selection's
// brush is two rect marks named `<param>_brush_bg` and `<param>_brush`:
// - they have no description, so screen readers would get unnamed graphics (axe: svg-img-alt);
//   they only decorate, so they are marked aria: false;
// - in a faceted chart their position tests the cell through the `facet` signal, which is only set
//   on a pointer move, so a brush given as a starting value (a link) is never drawn; they test the
//   cell's own datum (`parent`) instead, which is the same tuple.
import type { Mark, Spec } from 'vega';

const BRUSH_MARK = /_brush(_bg)?$/;

function isMark(value: unknown): value is Mark {
  return typeof value === 'object' && value !== null && 'type' in value;
}

/** A brush mark is plain JSON; its expressions are strings inside it. */
function fromCell(mark: Mark): Mark {
  const text = JSON.stringify(mark);
  if (!text.includes('(facet[')) return mark;
  const fixed: unknown = JSON.parse(text.replaceAll('(facet[', '(parent['));
  return isMark(fixed) ? fixed : mark;
}

function patchMarks(marks: readonly Mark[]): Mark[] {
  return marks.map((mark) => {
    if (mark.name && BRUSH_MARK.test(mark.name)) return { ...fromCell(mark), aria: false };
    return 'marks' in mark && mark.marks ? { ...mark, marks: patchMarks(mark.marks) } : mark;
  });
}

/** The spec with every brush mark (at any depth) out of the accessibility tree and drawn per cell. */
export function patchBrushMarks(spec: Spec): Spec {
  return spec.marks ? { ...spec, marks: patchMarks(spec.marks) } : spec;
}

/**
 * Vega-Lite 6 writes a faceted interval's initial store tuple with its `unit` as unevaluated
 * expression text, so a brush given as a starting value belongs to no cell. This names the cell
 * (facet unit) it was drawn in.
 */
export function brushInitUnit(param: string, unit: string): (spec: Spec) => Spec {
  return (spec) => ({
    ...spec,
    data: spec.data?.map((d) => {
      if (d.name !== `${param}_store` || !('values' in d) || !Array.isArray(d.values)) return d;
      const values: unknown[] = d.values;
      return {
        ...d,
        values: values.map((v) => (typeof v === 'object' && v !== null ? { ...v, unit } : v)),
      };
    }),
  });
}
