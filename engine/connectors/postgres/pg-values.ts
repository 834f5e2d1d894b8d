/**
 * PostgreSQL values as Weir row values, the same for a snapshot row (pg's text parsers) and a
 * replicated change (pgoutput text tuples parsed by the same parsers), so a row read either way is
 * identical. bigint is a number when it is a safe integer (else its exact digits as a string),
 * numeric is a number (Weir's DECIMAL values are numbers read by their shortest decimal form; more
 * than ~15 significant digits lose precision, docs/connectors/postgres.md), timestamps and dates
 * are epoch milliseconds (without a zone: as UTC) (what `eventTime` and Weir's time columns expect).
 */

const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;
const TIMESTAMP = 1114;
const TIMESTAMPTZ = 1184;

export function pgValue(typeOid: number, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (typeOid) {
    case INT8: {
      const n = Number(v);
      return Number.isSafeInteger(n) ? n : String(v);
    }
    case NUMERIC: {
      const n = Number(v);
      return Number.isFinite(n) ? n : String(v); // 'NaN' stays text
    }
    case DATE:
    case TIMESTAMP:
      // No zone: read as UTC (Weir's and the export's local time zone). pg built the Date from
      // local fields, so the local offset is taken back out.
      return v instanceof Date ? v.getTime() - v.getTimezoneOffset() * 60_000 : v;
    case TIMESTAMPTZ:
      return v instanceof Date ? v.getTime() : v;
    default:
      return v instanceof Date ? v.getTime() : v;
  }
}

/** The Flink SQL type Weir gives a PostgreSQL type (by `format_type` name), for declared columns and export. */
export function flinkTypeOfPg(pgType: string): string {
  const t = pgType.toLowerCase();
  if (t === 'smallint' || t === 'integer') return 'INT';
  if (t === 'bigint') return 'BIGINT';
  if (t === 'real' || t === 'double precision') return 'DOUBLE';
  const num = /^numeric(\(\d+,\d+\))?$/.exec(t.replace(/\s/g, ''));
  if (num) return num[1] ? `DECIMAL${num[1].replace(',', ', ')}` : 'DECIMAL(38, 10)';
  if (t === 'boolean') return 'BOOLEAN';
  if (t.startsWith('timestamp') || t === 'date') return 'BIGINT';
  return 'STRING';
}
