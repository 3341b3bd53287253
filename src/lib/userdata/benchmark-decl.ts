// A loaded table declared a benchmark: which field of its rows holds each part of a memory and of
// a query. One table holds both: a row whose query field holds text is a query, every other row
// is a memory. A field is a column of the table or a key of its `fields` JSON (`fields.id`).

/** The columns a mapped user table has (userdata/columns.ts), as a declaration may name them. */
export const TABLE_COLUMNS = [
  'memory',
  'query',
  'gold',
  'conversation',
  'speaker',
  'line',
] as const;

export const DECL_VERSION = 1;

export interface UserBenchmarkDecl {
  version: typeof DECL_VERSION;
  memory: { text: string; id: string; session: string | null; date: string | null };
  query: { text: string; gold: string; category: string | null };
}

/** The parts a declaration maps, as `memory.text`…, in the order the page and errors list them. */
export const DECL_PARTS = [
  'memory.text',
  'memory.id',
  'memory.session',
  'memory.date',
  'query.text',
  'query.gold',
  'query.category',
] as const;
export type DeclPart = (typeof DECL_PARTS)[number];

const OPTIONAL: ReadonlySet<DeclPart> = new Set([
  'memory.session',
  'memory.date',
  'query.category',
]);

export function isOptionalPart(part: DeclPart): boolean {
  return OPTIONAL.has(part);
}

export function partField(decl: UserBenchmarkDecl, part: DeclPart): string | null {
  const [side, key] = part.split('.');
  if (side === 'memory') {
    const m = decl.memory;
    return key === 'text' ? m.text : key === 'id' ? m.id : key === 'session' ? m.session : m.date;
  }
  const q = decl.query;
  return key === 'text' ? q.text : key === 'gold' ? q.gold : q.category;
}

export function withPart(
  decl: UserBenchmarkDecl,
  part: DeclPart,
  field: string | null,
): UserBenchmarkDecl {
  const [side, key] = part.split('.');
  if (side === 'memory') return { ...decl, memory: { ...decl.memory, [key]: field } };
  return { ...decl, query: { ...decl.query, [key]: field } };
}

/** A declaration that cannot be used: names the part (and, for a row, the table and line). */
export class DeclarationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeclarationError';
  }
}

const FIELD = /^(memory|query|gold|conversation|speaker|line|fields\.[^\s]{1,200})$/;

/** Why `field` cannot name a field of a user table, or null. */
export function fieldProblem(field: string): string | null {
  return FIELD.test(field)
    ? null
    : `"${field.slice(0, 60)}" is neither a column (${TABLE_COLUMNS.join(', ')}) nor fields.KEY`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readField(value: Record<string, unknown>, part: DeclPart, where: string): string | null {
  const key = part.split('.')[1];
  const v = value[key];
  if ((v === null || v === undefined) && isOptionalPart(part)) return null;
  if (typeof v !== 'string') {
    throw new DeclarationError(`${where}: ${part}: expected a field name, found ${typeof v}`);
  }
  const problem = fieldProblem(v);
  if (problem) throw new DeclarationError(`${where}: ${part}: ${problem}`);
  return v;
}

function required(field: string | null, part: DeclPart, where: string): string {
  if (field === null) throw new DeclarationError(`${where}: ${part}: no field chosen`);
  return field;
}

/** Checks a declaration read from storage, a file or the CLI; errors name `where` and the part. */
export function decodeDecl(value: unknown, where: string): UserBenchmarkDecl {
  if (!isRecord(value)) throw new DeclarationError(`${where}: not a benchmark declaration`);
  if (value.version !== DECL_VERSION) {
    throw new DeclarationError(
      `${where}: declaration version ${String(value.version)}, this MemLens reads ${DECL_VERSION}`,
    );
  }
  const memory = isRecord(value.memory) ? value.memory : {};
  const query = isRecord(value.query) ? value.query : {};
  const read = (part: DeclPart) =>
    readField(part.startsWith('memory') ? memory : query, part, where);
  const decl: UserBenchmarkDecl = {
    version: DECL_VERSION,
    memory: {
      text: required(read('memory.text'), 'memory.text', where),
      id: required(read('memory.id'), 'memory.id', where),
      session: read('memory.session'),
      date: read('memory.date'),
    },
    query: {
      text: required(read('query.text'), 'query.text', where),
      gold: required(read('query.gold'), 'query.gold', where),
      category: read('query.category'),
    },
  };
  return decl;
}
