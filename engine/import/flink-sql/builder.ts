/**
 * The job being built from a script: nodes (with the statement position that made them), edges,
 * the relation each table or view name stands for, and the problems found.
 */
import type { JobEdge, JobNode } from '../../graph/types.ts';
import type { Pos } from './tree.ts';
import type { Origin, ScriptProblem } from './statements.ts';

/** What a table or view name stands for: the Weir node(s) whose output it is, and its event-time column. */
export interface Relation {
  nodes: string[];
  rowtime: string | null;
  columns: string[];
  /**
   * A hand-written source's computed columns (name -> expression over its physical columns), which
   * Weir's source does not write: a query reading one reads the expression (computed-columns.ts).
   */
  computed?: Record<string, string>;
  /**
   * Columns that are the row's event time plus a fixed offset in ms: a window's rows carry the
   * event time window_end - 1, so its `window_end` (by any name) is +1, `window_time` 0 and a
   * tumbling or sliding window's `window_start` 1 - size. A join's time bound may read them.
   */
  times?: Record<string, number>;
  /**
   * The event-time column is in the rows: a hand-written source's physical TIMESTAMP column with
   * the WATERMARK (`dateTime TIMESTAMP(3)`). Otherwise (the export's computed rowtime, a window's
   * window_time) Weir keeps event time beside the row and a query's rowtime item writes nothing.
   */
  rowtimeInRow?: boolean;
}

/** `column` is the relation's event time kept beside its rows, not a column in them. */
export function besideRow(rel: Relation, column: string): boolean {
  return column === rel.rowtime && !rel.rowtimeInRow;
}

export interface BuiltNode {
  node: JobNode;
  pos: Pos;
  origin: Origin | null;
  order: number;
}

export class JobBuilder {
  readonly nodes: BuiltNode[] = [];
  readonly edges: JobEdge[] = [];
  readonly relations = new Map<string, Relation>();
  readonly problems: ScriptProblem[] = [];
  private counter = 0;

  constructor(
    readonly sql: string,
    readonly baseDir: string | undefined,
  ) {}

  problem(pos: Pos, message: string, severity: 'error' | 'warning' = 'warning'): void {
    this.problems.push({ line: pos.line, column: pos.column, message, severity });
  }

  /** A free node id: the wanted one, else with a numeric suffix. */
  freeId(want: string): string {
    const id = want.replace(/[^A-Za-z0-9_.-]/g, '_') || 'node';
    if (!this.nodes.some((n) => n.node.id === id)) return id;
    for (let i = 2; ; i++) if (!this.nodes.some((n) => n.node.id === `${id}_${i}`)) return `${id}_${i}`;
  }

  add(node: JobNode, pos: Pos, origin: Origin | null): JobNode {
    if (origin?.name !== undefined && node.name === undefined) node.name = origin.name;
    this.nodes.push({ node, pos, origin, order: this.counter++ });
    return node;
  }

  /** Edges from every node of a relation; `toPort` for the left or right input of a join. */
  connect(from: Relation, to: string, toPort?: 'left' | 'right'): void {
    for (const f of from.nodes) this.edges.push({ from: f, to, ...(toPort ? { toPort } : {}) });
  }

  relation(name: string, pos: Pos, what: string): Relation | null {
    const r = this.relations.get(name);
    if (!r)
      this.problem(
        pos,
        `${what} reads '${name}', which is not a table or view this script defines (or one Weir could not import)`,
        'error',
      );
    return r ?? null;
  }
}
