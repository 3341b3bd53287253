/** "1 turn", "2 turns", "1,069 clusters": a count with its noun in the right number. */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${n.toLocaleString('en')} ${n === 1 ? singular : pluralForm}`;
}
