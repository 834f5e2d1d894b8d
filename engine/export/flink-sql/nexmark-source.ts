/**
 * `source.nexmark` as the Nexmark suite declares it for Flink (queries/ddl_gen.sql and
 * ddl_views.sql): one table on the suite's `nexmark` connector (the nexmark-flink jar must be on
 * the SQL client's classpath) with a row per event kind, and one view per port with the port's
 * columns and the event-time attribute. Edges from a port read its view (`relationKey`).
 */
import type { JobNodeOf } from '../../graph/types.ts';
import { NEXMARK_COLUMNS, NEXMARK_DEFAULT_EVENT_RATE, NEXMARK_PORTS, type NexmarkPort } from '../../graph/nexmark.ts';
import { nexmarkParams } from '../../connectors/nexmark/nexmark-generator.ts';
import { parseDuration } from '../../graph/units.ts';
import type { Col, ExportContext } from './context.ts';
import { watermarkClause } from './event-time.ts';
import { quoteIdent, withOptions } from './identifiers.ts';
import { nexmarkSource } from '../../nodes/source-nexmark/definition.ts';

type NexmarkNode = JobNodeOf<typeof nexmarkSource.type> & { parallelism: number };

/** Key of a port's relation in ExportContext.relations. */
export function nexmarkRelationKey(nodeId: string, port: NexmarkPort): string {
  return `${nodeId}#${port}`;
}

/** Weir's epoch-millisecond BIGINTs are the suite's TIMESTAMP(3) columns in Flink. */
const TIMESTAMP_COLUMNS = new Set(['dateTime', 'expires']);

function flinkType(name: string, type: string): string {
  return TIMESTAMP_COLUMNS.has(name) ? 'TIMESTAMP(3)' : type;
}

export function nexmarkColumns(port: NexmarkPort): Col[] {
  return NEXMARK_COLUMNS[port].map(([name, type]) => ({ name, type: flinkType(name, type), certain: true }));
}

export function emitNexmarkSource(ctx: ExportContext, node: NexmarkNode): void {
  const c = node.config;
  const p = nexmarkParams(c, c.maxOutOfOrderness === undefined ? undefined : parseDuration(c.maxOutOfOrderness));
  const table = quoteIdent(node.id);
  const rowtime = ctx.rowtimeName;
  const kinds = NEXMARK_PORTS.map(
    (port) =>
      `  ${port} ROW<${NEXMARK_COLUMNS[port].map(([name, type]) => `${quoteIdent(name)} ${flinkType(name, type)}`).join(', ')}>`,
  );
  const rt = quoteIdent(rowtime);
  const lines = [
    '  event_type INT',
    ...kinds,
    `  ${rt} AS CASE WHEN event_type = 0 THEN person.\`dateTime\` WHEN event_type = 1 THEN auction.\`dateTime\` ELSE bid.\`dateTime\` END`,
    `  ${watermarkClause(rowtime, { field: 'dateTime', maxOutOfOrderness: p.maxOutOfOrderness })}`,
  ];
  const rate = String(p.rate ?? NEXMARK_DEFAULT_EVENT_RATE);
  const options: Array<[string, string]> = [
    ['connector', 'nexmark'],
    ['first-event.rate', rate],
    ['next-event.rate', rate],
    ['events.num', String(p.events ?? 0)],
    ['person.proportion', '1'],
    ['auction.proportion', '3'],
    ['bid.proportion', '46'],
  ];
  const comments = [
    ctx.origin(node),
    "-- The Nexmark suite's generator (nexmark-flink connector): same event mix, ids, event times and",
    "-- distributions as Weir's, but unseeded, so the random fields differ from Weir's run of this seed.",
    '-- dateTime and expires are TIMESTAMP(3) here and epoch milliseconds in Weir.',
  ];
  if (p.rate !== null)
    comments.push(
      `-- Weir throttles emission to ${p.rate} events/s; the connector spaces event time alike but emits at full speed.`,
    );
  ctx.warn(
    node,
    'config.seed',
    "the nexmark connector has no seed: persons, auctions and bids match Weir's in ids and event times, not in their random fields",
  );
  ctx.emit(`${comments.join('\n')}\nCREATE TABLE ${table} (\n${lines.join(',\n')}\n) ${withOptions(options)};`);
  NEXMARK_PORTS.forEach((port, kind) => {
    const view = quoteIdent(`${node.id}__${port}`);
    const cols = nexmarkColumns(port);
    const select = [...cols.map((col) => `${port}.${quoteIdent(col.name)} AS ${quoteIdent(col.name)}`), rt];
    ctx.emit(
      `${ctx.origin(node)}: port ${port}\nCREATE VIEW ${view} AS\nSELECT ${select.join(', ')}\nFROM ${table}\nWHERE event_type = ${kind};`,
    );
    ctx.relations.set(nexmarkRelationKey(node.id, port), { sql: view, columns: cols, rowtime });
  });
}
