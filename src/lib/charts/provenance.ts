/** Fields every chart datum carries so tooltips can say where a number was printed. */
export interface ProvenanceFields {
  paper: string;
  table: string;
  section: string;
  source_line: number;
  note: string;
}

export function provenanceTooltip(): {
  field: string;
  title: string;
  type: 'nominal' | 'quantitative';
}[] {
  return [
    { field: 'table', title: 'Table', type: 'nominal' },
    { field: 'section', title: 'Section', type: 'nominal' },
    { field: 'source_line', title: 'Line in paper text', type: 'quantitative' },
    { field: 'note', title: 'Note', type: 'nominal' },
  ];
}
