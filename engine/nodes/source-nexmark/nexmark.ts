/**
 * The shape of `source.nexmark` that validation, column typing, the designer and the exporter share
 * (browser-safe): its three output ports and their columns, named as in the Nexmark suite's Flink
 * DDL (nexmark-flink/src/main/resources/queries/ddl_gen.sql). `dateTime` and `expires` are epoch
 * milliseconds (BIGINT) in Weir; the Flink DDL types them TIMESTAMP(3).
 */

export type NexmarkPort = 'person' | 'auction' | 'bid';
export const NEXMARK_PORTS: readonly NexmarkPort[] = ['person', 'auction', 'bid'];

export function isNexmarkPort(port: string | undefined): port is NexmarkPort {
  return port === 'person' || port === 'auction' || port === 'bid';
}

/** Column name -> Flink SQL type, in the DDL's order. */
export const NEXMARK_COLUMNS: Readonly<Record<NexmarkPort, ReadonlyArray<readonly [string, string]>>> = {
  person: [
    ['id', 'BIGINT'],
    ['name', 'STRING'],
    ['emailAddress', 'STRING'],
    ['creditCard', 'STRING'],
    ['city', 'STRING'],
    ['state', 'STRING'],
    ['dateTime', 'BIGINT'],
    ['extra', 'STRING'],
  ],
  auction: [
    ['id', 'BIGINT'],
    ['itemName', 'STRING'],
    ['description', 'STRING'],
    ['initialBid', 'BIGINT'],
    ['reserve', 'BIGINT'],
    ['dateTime', 'BIGINT'],
    ['expires', 'BIGINT'],
    ['seller', 'BIGINT'],
    ['category', 'BIGINT'],
    ['extra', 'STRING'],
  ],
  bid: [
    ['auction', 'BIGINT'],
    ['bidder', 'BIGINT'],
    ['price', 'BIGINT'],
    ['channel', 'STRING'],
    ['url', 'STRING'],
    ['dateTime', 'BIGINT'],
    ['extra', 'STRING'],
  ],
};

export function nexmarkColumnNames(port: NexmarkPort): string[] {
  return NEXMARK_COLUMNS[port].map(([name]) => name);
}

/** Flink's Nexmark DDL watermarks `dateTime` 4 seconds behind (`WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND`). */
export const NEXMARK_DEFAULT_OUT_OF_ORDERNESS_MS = 4000;
/** Event time of event 0 when the config sets no `baseTime` (2023-11-14T22:13:20Z, as source.generator). */
export const NEXMARK_DEFAULT_BASE_TIME = 1_700_000_000_000;
/** Flink's NexmarkConfiguration.firstEventRate default: events per second of event time. */
export const NEXMARK_DEFAULT_EVENT_RATE = 10_000;
