/**
 * Rows as Kafka messages for `sink.kafka` (and the shapes Flink's formats read back):
 * - jsonl: the row as one JSON object (Flink's `json`); a key is a JSON object of the key columns;
 * - csv: the row's values in column order, no header (Flink's `csv`); a key, its columns' values;
 * - raw: the row's only column as text (Flink's `raw`); a key, its only column as text.
 * A changelog with a key is written as upsert-kafka does: +I and +U as values, -D as a tombstone
 * (null value), -U dropped when the +U right after it has the same key (an update in place), else a
 * tombstone (the update moved the row to another key, or a filter dropped its +U).
 */
import type { Row, RowKind } from '../../contracts/operator.ts';
import type { KafkaFormat } from '../../nodes/sink-kafka/definition.ts';

export interface KafkaMessage {
  key: string | null;
  value: string | null;
}

function rawText(row: Row, what: string): string | null {
  const values = Object.values(row);
  if (values.length !== 1)
    throw new Error(`raw format writes one column as the ${what}, but the row has ${values.length}`);
  const v = values[0];
  return v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * One CSV field as Flink's csv format writes it (RFC 4180 quoting). Not connectors/csv.ts's csvField:
 * engine/connectors imports this folder (sink-recovery.ts), so this folder cannot import it back.
 */
function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function encodeRow(row: Row, format: KafkaFormat): string | null {
  if (format === 'jsonl') return JSON.stringify(row);
  if (format === 'csv') return Object.values(row).map(csvField).join(',');
  return rawText(row, 'value');
}

function keyRow(row: Row, keyColumns: readonly string[]): Row {
  const key: Row = {};
  for (const k of keyColumns) key[k] = row[k] ?? null;
  return key;
}

/** The messages of one batch, in order. `keyColumns` empty: unkeyed messages (round robin). */
export function toMessages(
  rows: readonly Row[],
  kinds: readonly RowKind[] | undefined,
  format: KafkaFormat,
  keyColumns: readonly string[],
): KafkaMessage[] {
  const out: KafkaMessage[] = [];
  const keyOf = (row: Row) => (keyColumns.length === 0 ? null : encodeRow(keyRow(row, keyColumns), format));
  for (let i = 0; i < rows.length; i++) {
    const kind = kinds?.[i] ?? '+I';
    const key = keyOf(rows[i]);
    if (kind === '+I' || kind === '+U') out.push({ key, value: encodeRow(rows[i], format) });
    else if (kind === '-D') out.push({ key, value: null });
    else if (!(kinds?.[i + 1] === '+U' && keyOf(rows[i + 1]) === key)) out.push({ key, value: null });
  }
  return out;
}
