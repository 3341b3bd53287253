// BibTeX for the Cite buttons: each paper's entry from paper-refs.ts, and MemLens's own for its
// recomputed rows. Apart from the records, so a page that links "line N" does not carry it.
import type { PaperRef } from './paper-refs.ts';

/** A BibTeX field value: braces dropped, LaTeX's specials escaped. */
function value(text: string): string {
  return `{${text.replaceAll(/[{}]/g, '').replaceAll(/([&%$#_])/g, '\\$1')}}`;
}

/** A title's value, its words with two capitals (InMind, QA) braced so styles keep their case. */
function titleValue(text: string): string {
  return value(text).replaceAll(/\b([A-Z][A-Za-z]*[A-Z][A-Za-z]*)\b/g, '{$1}');
}

function entry(type: string, key: string, fields: readonly [string, string | null][]): string {
  const lines = fields.flatMap(([k, v]) => (v === null ? [] : [`  ${k} = ${v}`]));
  return `@${type}{${key},\n${lines.join(',\n')}\n}\n`;
}

/** The paper's BibTeX: what its stored text gives, nothing more. */
export function paperBibtex(ref: PaperRef): string {
  const family =
    ref.authors[0]
      ?.split(',')[0]
      .toLowerCase()
      .replaceAll(/[^a-z]/g, '') ?? '';
  const id = ref.id.replaceAll(/[^a-z]/g, '');
  return entry('misc', family ? `${family}${ref.year}${id}` : `${id}${ref.year}`, [
    ['title', titleValue(ref.title)],
    ['author', ref.authors.length ? value(ref.authors.join(' and ')) : null],
    ['year', `{${ref.year}}`],
    ['eprint', ref.arxiv && `{${ref.arxiv}}`],
    ['archivePrefix', ref.arxiv && '{arXiv}'],
    ['url', ref.arxiv && `{https://arxiv.org/abs/${ref.arxiv}}`],
  ]);
}

/** MemLens's own entry, for its reproduced rows: the view's URL and the day it was read. */
export function memlensBibtex(viewUrl: string, accessed: Date): string {
  return entry('software', 'memlens', [
    ['title', '{MemLens: a browser explorer for conversational-memory benchmarks}'],
    ['year', `{${accessed.getUTCFullYear()}}`],
    ['url', `{${viewUrl.replaceAll(/[{}]/g, '')}}`],
    [
      'note',
      `{Numbers recomputed by MemLens in the browser, as shown at this URL on ${accessed.toISOString().slice(0, 10)}}`,
    ],
  ]);
}
