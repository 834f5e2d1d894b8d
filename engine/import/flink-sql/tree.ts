/**
 * Reading dt-sql-parser's Flink SQL parse tree (ANTLR contexts): find contexts by their class
 * name, slice the original text a context spans (expressions are kept exactly as written), and
 * give positions as 1-based line and column.
 */
export interface Ctx {
  constructor: { name: string };
  children?: Ctx[] | null;
  start?: { start: number; line: number; column: number } | null;
  stop?: { stop: number } | null;
}

export interface Pos {
  line: number;
  column: number;
}

export function kind(ctx: Ctx): string {
  return ctx.constructor.name.replace(/Context$/, '');
}

/** Direct children of the given kind. */
export function children(ctx: Ctx, k: string): Ctx[] {
  return (ctx.children ?? []).filter((c) => c.children !== undefined && kind(c) === k);
}

export function child(ctx: Ctx, k: string): Ctx | undefined {
  return children(ctx, k)[0];
}

/** The first descendant (depth first, the node itself included) of the given kind. */
export function find(ctx: Ctx, k: string): Ctx | undefined {
  if (kind(ctx) === k) return ctx;
  for (const c of ctx.children ?? []) {
    if (!c.children) continue;
    const f = find(c, k);
    if (f) return f;
  }
  return undefined;
}

/** Every descendant of the given kind, not looking inside a match. */
export function findAll(ctx: Ctx, k: string, out: Ctx[] = []): Ctx[] {
  for (const c of ctx.children ?? []) {
    if (!c.children) continue;
    if (kind(c) === k) out.push(c);
    else findAll(c, k, out);
  }
  return out;
}

export function textOf(sql: string, ctx: Ctx): string {
  if (!ctx.start || !ctx.stop) return '';
  return sql.slice(ctx.start.start, ctx.stop.stop + 1);
}

export function posOf(ctx: Ctx): Pos {
  return { line: ctx.start?.line ?? 1, column: (ctx.start?.column ?? 0) + 1 };
}
