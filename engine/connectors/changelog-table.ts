/**
 * A changelog folded into the table it describes (Flink's retract semantics): `+I`/`+U` add a row,
 * `-U`/`-D` remove one row equal to it. Rows keep their place: an update (`-U` then `+U`) puts the
 * new row where the old one was, so a live view reads like a query result updated in place.
 * Used by `sink.preview` on changelog input.
 */
import type { Row, RowKind } from '../contracts/operator.ts';

export class ChangelogTable {
  /** Rows in display order; null marks a slot freed by a retraction not yet refilled. */
  private slots: Array<Row | null> = [];
  private byText = new Map<string, number[]>();
  private hole: number | null = null;
  private live = 0;

  get size(): number {
    return this.live;
  }

  apply(kind: RowKind, row: Row): void {
    const text = JSON.stringify(row);
    if (kind === '-U' || kind === '-D') {
      const at = this.byText.get(text);
      const slot = at?.pop();
      if (slot === undefined) return; // retraction of a row this subtask never saw: nothing to remove
      if (at!.length === 0) this.byText.delete(text);
      this.slots[slot] = null;
      this.live--;
      if (kind === '-U') this.hole = slot;
      return;
    }
    let slot: number;
    if (kind === '+U' && this.hole !== null) slot = this.hole;
    else {
      slot = this.slots.length;
      this.slots.push(null);
    }
    this.hole = null;
    this.slots[slot] = row;
    this.live++;
    const at = this.byText.get(text);
    if (at) at.push(slot);
    else this.byText.set(text, [slot]);
    if (this.slots.length > 2 * this.live + 64) this.compact();
  }

  /** The first `limit` rows in display order. */
  rows(limit = Infinity): Row[] {
    const out: Row[] = [];
    for (const r of this.slots) {
      if (r !== null) out.push(r);
      if (out.length >= limit) break;
    }
    return out;
  }

  private compact(): void {
    const rows = this.rows();
    this.slots = [];
    this.byText.clear();
    this.live = 0;
    this.hole = null;
    for (const r of rows) this.apply('+I', r);
  }
}

/** `sink.file` with `format: "changelog-json"`: one line per change, `{"op":"+U","data":{...}}`. */
export function changelogJsonLines(rows: readonly Row[], kinds: readonly RowKind[] | undefined): string {
  let text = '';
  for (let i = 0; i < rows.length; i++)
    text += `{"op":"${kinds ? kinds[i] : '+I'}","data":${JSON.stringify(rows[i])}}\n`;
  return text;
}
