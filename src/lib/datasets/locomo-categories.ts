/**
 * LoCoMo's `category` integers as LoCoMo's own release uses them. locomo10.json carries only
 * the number; the release's scorer (snap-research/locomo task_eval/evaluation.py @ 92286325)
 * scores 1 by splitting the answer into sub-answers (multi-hop), 5 by "no information available"
 * (adversarial), and its evaluate scripts add "Use DATE of CONVERSATION" to 2 (temporal); the
 * full mapping is spelled out in snap-research/locomo issue #29. The paper lists the types in
 * another order (single-hop first), so the numbers must not be read as the paper's list.
 */
export const LOCOMO_CATEGORY_NAMES: Readonly<Record<number, string>> = Object.freeze({
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
});

export const LOCOMO_CATEGORY_SOURCE =
  'snap-research/locomo task_eval/evaluation.py @ 92286325 and issue #29';

/** "category 4 · single-hop"; an unknown number keeps only its number. */
export function locomoCategoryLabel(category: number | null): string {
  if (category === null) return 'category ?';
  const name = LOCOMO_CATEGORY_NAMES[category];
  return name === undefined ? `category ${category}` : `category ${category} · ${name}`;
}
