import { parse, View } from 'vega';
import { expressionInterpreter } from 'vega-interpreter';
import { compile, type TopLevelSpec } from 'vega-lite';

/** Draws a figure (`figureSpec`) off screen; pages import this lazily, with the rest of Vega. */

// Expressions are interpreted, not compiled with `new Function`, so the CSP needs no unsafe-eval.
function headlessView(spec: TopLevelSpec): View {
  return new View(parse(compile(spec).spec, undefined, { ast: true }), {
    renderer: 'none',
    expr: expressionInterpreter,
  });
}

export async function figureSvg(spec: TopLevelSpec): Promise<string> {
  const view = headlessView(spec);
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** A PNG data URL at `scale` × the figure's size (needs a canvas: the browser). */
export async function figurePng(spec: TopLevelSpec, scale = 2): Promise<string> {
  const view = headlessView(spec);
  try {
    return await view.toImageURL('png', scale);
  } finally {
    view.finalize();
  }
}
