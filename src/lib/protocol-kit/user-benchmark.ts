// A reader's own benchmark, from a table loaded on Your data and the declaration made over it:
// every query against every memory of the table, gold ids naming the targets. The page and the
// CLI build it here and run it as any registered protocol.
import type { QueryRunner } from '../query/query-client.ts';
import { userBenchmarksQuery } from '../query/user-benchmarks.ts';
import { tableNamesQuery } from '../query/catalog-queries.ts';
import { plural } from '../common/plural.ts';
import {
  decodeDecl,
  DeclarationError,
  type UserBenchmarkDecl,
} from '../userdata/benchmark-decl.ts';
import {
  checkDeclaration,
  describeDecl,
  type UserBenchmarkRows,
} from '../userdata/benchmark-rows.ts';
import { corpusMap, type Protocol } from './types.ts';

export const USER_CORPUS = 'memories';
export const USER_SERIES = 'query';
export const USER_K = 5;

/** The declaration kept for `table`; an error that says so when the table has none. */
export async function readDeclaration(
  reader: QueryRunner,
  table: string,
): Promise<UserBenchmarkDecl> {
  const present = new Set((await reader.run(tableNamesQuery())).map((r) => r.table_name));
  if (!present.has(table)) {
    throw new DeclarationError(
      `${table}: no table of yours has this name in this browser: load the file on Your data and declare it a benchmark`,
    );
  }
  const found = (await reader.run(userBenchmarksQuery())).find((r) => r.name === table);
  if (!found) {
    throw new DeclarationError(
      `${table}: loaded, but not declared a benchmark: declare it on Your data`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(found.declaration);
  } catch {
    throw new DeclarationError(`${table}: its kept declaration is not JSON`);
  }
  return decodeDecl(parsed, `${table}'s declaration`);
}

function span(values: readonly (string | null)[]): string | null {
  const present = values.filter((v): v is string => v !== null).sort();
  return present.length === 0 ? null : `${present[0]} to ${present[present.length - 1]}`;
}

/** The notes beside the results: what the pool and the targets are, and the declaration. */
function notes(table: string, decl: UserBenchmarkDecl, rows: UserBenchmarkRows): string[] {
  const sessions = new Set(rows.memories.flatMap((m) => (m.session === null ? [] : [m.session])));
  const dates = span(rows.memories.map((m) => m.date));
  const meta = [
    sessions.size > 0 ? `${plural(sessions.size, 'session')}` : null,
    dates ? `dated ${dates}` : null,
  ].filter((s) => s !== null);
  return [
    `your benchmark ${table}: ${plural(rows.queries.length, 'query', 'queries')} against all ${plural(rows.memories.length, 'memory', 'memories')}${meta.length > 0 ? ` (${meta.join(', ')})` : ''}`,
    'targets: the memories a query names as gold; background: every other memory; memory text as loaded',
    `declaration: ${describeDecl(decl)}`,
  ];
}

/** The protocol of a declared table: one pool, one series, groups by category. */
export function userBenchmarkProtocol(
  table: string,
  decl: UserBenchmarkDecl,
  rows: UserBenchmarkRows,
): Protocol {
  const corpus = {
    id: USER_CORPUS,
    docs: rows.memories.map((m) => m.text),
    docIds: rows.memories.map((m) => m.id),
  };
  return {
    benchmark: table,
    notes: notes(table, decl, rows),
    corpora: corpusMap([corpus]),
    queries: rows.queries.map((q) => ({
      id: q.id,
      series: USER_SERIES,
      group: q.category,
      text: q.text,
      corpusId: USER_CORPUS,
      goldIds: q.gold,
    })),
    defaultK: Math.min(USER_K, rows.memories.length),
  };
}

/** The declared table's protocol, read through `reader` (the page's client or the CLI's catalog). */
export async function buildUserBenchmark(reader: QueryRunner, table: string): Promise<Protocol> {
  const decl = await readDeclaration(reader, table);
  return userBenchmarkProtocol(table, decl, await checkDeclaration(reader, table, decl));
}
