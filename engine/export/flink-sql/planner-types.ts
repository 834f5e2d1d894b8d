/**
 * The column types the script declares are the planner's (engine/graph/edge-schemas.ts): one set of
 * type rules for the designer, the validator and the export, so a sink table declares exactly what
 * the canvas shows on the edge into it. The export has no type inference of its own.
 *
 * The planner runs over the sources as the script declares them (`sourceTypes`), which differs
 * from Weir's own reading in two places, each forced by Flink's connectors: Nexmark's `dateTime`
 * and `expires` are the suite's TIMESTAMP(3) (Weir: epoch-millisecond BIGINTs), and a file
 * column declared TIMESTAMP is read as its ISO-8601 text, STRING (Flink's json and csv formats
 * refuse the 'T...Z' form). Everything downstream is typed from there by the same rules.
 */
import { edgeSchemas } from '../../graph/edge-schemas.ts';
import { columnTyper, type ColumnTypeOptions } from '../../graph/column-types.ts';
import { flinkTypeOfColumnType } from '../../graph/edge-schemas.ts';
import { isNexmarkPort } from '../../graph/nexmark.ts';
import type { NormalizedJob } from '../../graph/types.ts';
import type { Col, PlannerTypes } from './context.ts';
import { nexmarkColumns, nexmarkRelationKey } from './nexmark-source.ts';
import { fileSource } from '../../nodes/source-file/definition.ts';

/** `sourceColumns`: each source's columns as the script declares them (Nexmark's: per port, nexmark-source.ts). */
export function plannerTypes(job: NormalizedJob, sourceColumns: ReadonlyMap<string, readonly Col[]>): PlannerTypes {
  const asRecord = (cols: readonly Col[] | undefined) =>
    cols ? Object.fromEntries(cols.map((c) => [c.name, c.type])) : undefined;
  const key = (nodeId: string, port: string) => (isNexmarkPort(port) ? nexmarkRelationKey(nodeId, port) : nodeId);
  const opts: ColumnTypeOptions = {
    sourceTypes: (nodeId, port) =>
      asRecord(isNexmarkPort(port) ? nexmarkColumns(port) : port === 'out' ? sourceColumns.get(nodeId) : undefined),
    sampled: (node) => (node.type === fileSource.type ? asRecord(sourceColumns.get(node.id)) : undefined),
  };
  const outputs = new Map<string, Map<string, string>>();
  edgeSchemas(job, opts).forEach((schema, i) => {
    const e = job.edges[i];
    const port = e.fromPort ?? 'out';
    if (!schema.known || port === 'late' || port === 'bad') return;
    outputs.set(key(e.from, port), new Map(schema.columns.map((c) => [c.name, c.type])));
  });
  const typer = columnTyper(job, opts);
  return {
    output: (relationKey, column) => known(outputs.get(relationKey)?.get(column)),
    input: (nodeId, column) => known(flinkTypeOfColumnType(typer.inputOf(nodeId).get(column))),
  };
}

function known(type: string | undefined): string | undefined {
  return type === undefined || type === 'UNKNOWN' ? undefined : type;
}

/**
 * `columns` with the planner's types. A column the planner cannot type (its input's columns are
 * known only from the data) is written as STRING and cast to it where a sink writes it (`certain`
 * false), as the sink's warning says.
 */
export function withPlannerTypes(columns: readonly Col[], typeOf: (column: string) => string | undefined): Col[] {
  return columns.map((c) => {
    const type = typeOf(c.name);
    return type === undefined
      ? { name: c.name, type: 'STRING', certain: false }
      : { name: c.name, type, certain: true };
  });
}
