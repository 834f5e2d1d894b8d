import type { JobNode, JobProblem, NormalizedJob } from '../../graph/types.ts';
import { commentText } from './identifiers.ts';
import { DEFAULT_FLINK_VERSION, type FlinkVersion } from './versions.ts';

/** A column of a source's data as declared or inferred: name and Flink SQL type. */
export interface Column {
  name: string;
  type: string;
}

export interface FlinkExportOptions {
  /** Columns of a `source.file` node; when absent or returning undefined the exporter samples the file. */
  inferSchema?: (node: JobNode) => Column[] | undefined;
  /** The Flink version whose configuration keys the script uses (default: the newest, versions.ts). */
  flinkVersion?: FlinkVersion;
  /** Prefix for relative data and checkpoint paths, e.g. `s3://bucket/weir/` (paths.ts). */
  pathPrefix?: string;
}

/** The planner's types of the script's relations (planner-types.ts builds them). */
export interface PlannerTypes {
  /** A relation's column (relation key: a node id, or a Nexmark port's key); undefined when not known. */
  output(relationKey: string, column: string): string | undefined;
  /** What reaches `nodeId` from all its inputs (a multi-input node's merged view). */
  input(nodeId: string, column: string): string | undefined;
}

/** A column of an exported relation. `certain` is false when the planner cannot type it (written with CAST). */
export interface Col {
  name: string;
  type: string;
  certain: boolean;
}

/**
 * What a Weir node became in the script: a table or view with Weir's record fields (`columns`) and,
 * apart from them, the event-time attribute `rowtime` that Flink needs for windows. Weir carries a
 * record's timestamp beside the record; Flink needs it as a column, so every view passes it along
 * while sinks never write it.
 */
export interface Relation {
  /** SQL name of the table or view, already quoted where needed. */
  sql: string;
  columns: Col[];
  /** Name of the event-time attribute column, or null when the stream has no event time. */
  rowtime: string | null;
  /** An updating result (aggregate, topn and what follows them): sinks need a changelog format. */
  changelog?: boolean;
}

export type ExportNode = NormalizedJob['nodes'][number];

export class ExportContext {
  readonly warnings: JobProblem[] = [];
  /** CREATE TABLE / CREATE VIEW statements in dependency order. */
  readonly statements: string[] = [];
  /** INSERT INTO statements for the statement set. */
  readonly inserts: string[] = [];
  readonly relations = new Map<string, Relation>();
  /** Columns of each source, worked out before anything is emitted. */
  readonly sourceColumns = new Map<string, Col[]>();
  rowtimeName = 'rowtime';
  /** The planner's types of every relation (planner-types.ts), set once the sources' columns are known. */
  planner: PlannerTypes = { output: () => undefined, input: () => undefined };
  private readonly index = new Map<string, number>();

  readonly version: FlinkVersion;

  constructor(
    readonly job: NormalizedJob,
    readonly opts: FlinkExportOptions,
  ) {
    job.nodes.forEach((n, i) => this.index.set(n.id, i));
    this.version = opts.flinkVersion ?? DEFAULT_FLINK_VERSION;
  }

  path(nodeId: string, field?: string): string {
    const i = this.index.get(nodeId);
    return `nodes[${i ?? '?'}]${field ? '.' + field : ''}`;
  }

  node(id: string): ExportNode | undefined {
    const i = this.index.get(id);
    return i === undefined ? undefined : this.job.nodes[i];
  }

  /** "window 'per_user' (Per user)": how messages and comments name a node. */
  describe(node: ExportNode): string {
    return `${node.type} '${node.id}'${node.name && node.name !== node.id ? ` (${node.name})` : ''}`;
  }

  warn(node: ExportNode, field: string | undefined, message: string): void {
    this.warnings.push({
      path: this.path(node.id, field),
      nodeId: node.id,
      severity: 'warning',
      message: `${this.describe(node)}: ${message}`,
    });
  }

  warnJob(path: string, message: string, nodeId?: string): void {
    this.warnings.push({ path, message, severity: 'warning', ...(nodeId ? { nodeId } : {}) });
  }

  /** The comment line that opens every statement a node produced. */
  origin(node: ExportNode): string {
    return `-- ${this.path(node.id)} ${commentText(this.describe(node))}`;
  }

  emit(statement: string): void {
    this.statements.push(statement);
  }
}
