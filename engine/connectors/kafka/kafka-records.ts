/**
 * A Kafka record's value as a row, per `format` (Flink's json, csv and raw formats): a JSON object;
 * a CSV line of the declared columns in order (no header: each record is one line); or the value
 * as text in one column. Returns the row, null for a tombstone (no value: skipped, as Flink's
 * formats skip it), or why the record is bad.
 */
import type { Row } from '../../contracts/operator.ts';
import type { KafkaSourceConfig } from '../../graph/types.ts';
import { csvValue, parseCsvLine } from '../formats/csv.ts';
import { RAW_COLUMN } from '../../nodes/source-kafka/definition.ts';

export type Decoded = { row: Row } | { bad: string } | null;

export function decodeValue(cfg: KafkaSourceConfig, value: Buffer | null): Decoded {
  if (value === null) return null;
  const text = value.toString('utf8');
  if (cfg.format === 'raw') return { row: { [cfg.columns ? Object.keys(cfg.columns)[0] : RAW_COLUMN]: text } };
  if (cfg.format === 'csv') {
    const names = Object.keys(cfg.columns ?? {});
    const cells = parseCsvLine(text.replace(/\r?\n$/, ''));
    if (cells === null || cells.length !== names.length) return { bad: `expected ${names.length} CSV fields` };
    const row: Row = {};
    for (let i = 0; i < names.length; i++) row[names[i]] = csvValue(cells[i], cfg.columns![names[i]]);
    return { row };
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { bad: `invalid JSON (${(e as Error).message})` };
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return { bad: 'expected a JSON object' };
  return { row: v as Row };
}

/** A record's text for a message, cut short. */
export function recordText(value: Buffer | null): string {
  const t = value?.toString('utf8') ?? '';
  return t.length > 200 ? `${t.slice(0, 200)}...` : t;
}
