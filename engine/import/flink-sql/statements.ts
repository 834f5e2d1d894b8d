/**
 * A Flink SQL script as a list of statements Weir understands, read from dt-sql-parser's FlinkSQL
 * parse tree: SET, CREATE TABLE (columns, computed columns, WATERMARK, WITH options), CREATE VIEW,
 * INSERT INTO (alone or inside EXECUTE STATEMENT SET). Anything else is kept as `other` so the
 * importer can report it with its line and column; syntax errors are reported the same way.
 * The comment Weir's exporter puts before each statement (`-- nodes[2] window 'w' (Per user)`) is
 * read too, to keep node ids, names and order on a round trip.
 */
import { FlinkSQL } from 'dt-sql-parser';
import { maskGrammarGaps } from './grammar-gaps.ts';
import { overFailures } from './over-windows.ts';
import { child, children, find, findAll, kind, posOf, textOf, type Ctx, type Pos } from './tree.ts';
import { unquoteIdent, unquoteString } from './values.ts';

export interface Origin {
  index: number;
  type: string;
  id: string;
  name?: string;
}

export interface TableStatement {
  kind: 'table';
  name: string;
  pos: Pos;
  origin: Origin | null;
  columns: Array<{ name: string; type: string }>;
  computed: Array<{ name: string; expr: string }>;
  /** `name TYPE METADATA [FROM 'key'] [VIRTUAL]` columns: `key` is the FROM key, else the name. */
  metadata: Array<{ name: string; key: string }>;
  watermark: { column: string; expr: string } | null;
  /** `PRIMARY KEY (a, b) NOT ENFORCED` columns, or null. */
  primaryKey: string[] | null;
  options: Record<string, string>;
  /** The comment lines right above the statement. */
  notes: string[];
}
export interface ViewStatement {
  kind: 'view';
  name: string;
  pos: Pos;
  origin: Origin | null;
  query: Ctx;
}
export interface InsertStatement {
  kind: 'insert';
  target: string;
  pos: Pos;
  origin: Origin | null;
  query: Ctx;
}
export interface SetStatement {
  kind: 'set';
  key: string;
  value: string;
  pos: Pos;
}
export interface OtherStatement {
  kind: 'other';
  text: string;
  pos: Pos;
}
export type Statement = TableStatement | ViewStatement | InsertStatement | SetStatement | OtherStatement;

export interface ScriptProblem {
  line: number;
  column: number;
  message: string;
  severity: 'error' | 'warning';
}

const flink = new FlinkSQL();

/**
 * ANTLR's default console listener prints every syntax error (`line 2:126 no viable alternative
 * ...`) to stderr when dt-sql-parser re-parses a failing statement; the errors are reported as
 * problems instead, so that output is dropped while the grammar runs (synchronously).
 */
function quietly<T>(f: () => T): T {
  const error = console.error;
  console.error = () => {};
  try {
    return f();
  } finally {
    console.error = error;
  }
}

export function readStatements(sql: string): {
  statements: Statement[];
  problems: ScriptProblem[];
  jobName: string | null;
} {
  const parsable = maskGrammarGaps(sql);
  const syntax: ScriptProblem[] = quietly(() => flink.validate(parsable)).map((e) => ({
    line: e.startLine,
    column: e.startColumn,
    severity: 'error' as const,
    message: `syntax error: ${e.message}`,
  }));
  // An OVER aggregation the grammar failed on: one error, and what it made of the statement dropped.
  const over = overFailures(sql, syntax);
  const problems = over.problems;
  const statements: Statement[] = [];
  const tree = quietly(() => flink.parse(parsable, () => undefined)) as unknown as Ctx; // errors: from validate() above
  const lines = sql.split('\n');
  for (const single of children(tree, 'SingleStatement')) {
    const stmt = find(single, 'SqlStatement') ?? single;
    const pos = posOf(single);
    const origin = originBefore(lines, pos.line);
    const set = find(stmt, 'SetStatement');
    const table = find(stmt, 'SimpleCreateTable');
    const view = find(stmt, 'CreateView');
    const insert = find(stmt, 'InsertStatement');
    if (set && kind(stmt.children?.[0] ?? stmt) !== 'DdlStatement') {
      const prop = find(set, 'TableProperty');
      const key = prop ? child(prop, 'TablePropertyKey') : undefined;
      const value = prop ? child(prop, 'TablePropertyValue') : undefined;
      if (key && value)
        statements.push({
          kind: 'set',
          key: unquoteString(textOf(sql, key)),
          value: unquoteString(textOf(sql, value)),
          pos,
        });
      else statements.push({ kind: 'other', text: textOf(sql, stmt), pos });
    } else if (table) {
      statements.push({ ...readTable(sql, table, pos, origin), notes: commentsBefore(lines, pos.line) });
    } else if (view) {
      const name = child(view, 'ViewPathCreate');
      const query = child(view, 'QueryStatement');
      if (name && query) statements.push({ kind: 'view', name: unquoteIdent(textOf(sql, name)), pos, origin, query });
      else statements.push({ kind: 'other', text: textOf(sql, stmt), pos });
    } else if (insert) {
      for (const simple of findAll(insert, 'InsertSimpleStatement')) {
        const target = child(simple, 'TablePath');
        const query = child(simple, 'QueryStatement');
        const p = posOf(simple);
        if (target && query)
          statements.push({
            kind: 'insert',
            target: unquoteIdent(textOf(sql, target)),
            pos: p,
            origin: originBefore(lines, p.line),
            query,
          });
        else statements.push({ kind: 'other', text: textOf(sql, simple), pos: p });
      }
    } else {
      statements.push({ kind: 'other', text: textOf(sql, stmt), pos });
    }
  }
  const header = /^-- Apache Flink SQL script for the Weir job '(.*)' \(/m.exec(sql);
  return {
    statements: statements.filter((s) => !over.inside(s.pos)),
    problems,
    jobName: header ? header[1] : null,
  };
}

function readTable(sql: string, table: Ctx, pos: Pos, origin: Origin | null): TableStatement {
  const nameCtx = child(table, 'TablePathCreate');
  const out: TableStatement = {
    kind: 'table',
    name: nameCtx ? unquoteIdent(textOf(sql, nameCtx)) : '',
    pos,
    origin,
    columns: [],
    computed: [],
    metadata: [],
    watermark: null,
    primaryKey: null,
    options: {},
    notes: [],
  };
  for (const def of children(table, 'ColumnOptionDefinition')) {
    const physical = child(def, 'PhysicalColumnDefinition');
    const computed = child(def, 'ComputedColumnDefinition');
    const metadata = child(def, 'MetadataColumnDefinition');
    if (metadata) {
      const name = unquoteIdent(textOf(sql, (metadata.children ?? [])[0]));
      const key = child(metadata, 'MetadataKey');
      out.metadata.push({ name, key: key ? textOf(sql, key).replace(/^'|'$/g, '') : name });
    } else if (physical) {
      const parts = physical.children ?? [];
      const name = unquoteIdent(textOf(sql, parts[0]));
      const type = textOf(sql, physical).slice(textOf(sql, parts[0]).length).trim();
      out.columns.push({ name, type });
    } else if (computed) {
      const parts = computed.children ?? [];
      const name = unquoteIdent(textOf(sql, parts[0]));
      const expr = textOf(sql, computed).replace(/^\s*(`(?:[^`]|``)*`|\S+)\s+AS\s+/i, '');
      out.computed.push({ name, expr });
    }
  }
  const wm = child(table, 'WatermarkDefinition');
  if (wm) {
    const col = child(wm, 'ColumnName');
    const expr = child(wm, 'Expression');
    if (col && expr) out.watermark = { column: unquoteIdent(textOf(sql, col)), expr: textOf(sql, expr) };
  }
  // The grammar's constraint node is not needed for more than the column list: read it from the text.
  const pk = /\bPRIMARY\s+KEY\s*\(([^)]*)\)/i.exec(textOf(sql, table).split(/\)\s*WITH\s*\(/i)[0]);
  if (pk) out.primaryKey = pk[1].split(',').map((c) => unquoteIdent(c.trim()));
  const withOpt = child(table, 'WithOption');
  if (withOpt) {
    for (const prop of findAll(withOpt, 'TableProperty')) {
      const key = child(prop, 'TablePropertyKey');
      const value = child(prop, 'TablePropertyValue');
      if (key && value) out.options[unquoteString(textOf(sql, key))] = unquoteString(textOf(sql, value));
    }
  }
  return out;
}

function commentsBefore(lines: string[], line: number): string[] {
  const out: string[] = [];
  for (let i = line - 2; i >= 0 && /^\s*--/.test(lines[i]); i--) out.unshift(lines[i]);
  return out;
}

const ORIGIN = /^\s*-- nodes\[(\d+)\] ([a-z.]+) '((?:[^']|'')*)'(?: \((.*)\))?(?::.*)?$/;

/** The exporter's origin comment in the comment lines right above a statement, if any. */
function originBefore(lines: string[], line: number): Origin | null {
  for (let i = line - 2; i >= 0 && /^\s*--/.test(lines[i]); i--) {
    const m = ORIGIN.exec(lines[i]);
    if (m) return { index: Number(m[1]), type: m[2], id: m[3], ...(m[4] !== undefined ? { name: m[4] } : {}) };
  }
  return null;
}
