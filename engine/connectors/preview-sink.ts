/**
 * `sink.preview`: keeps the last N records per subtask and sends them to the host as preview
 * events, at most every `PREVIEW_INTERVAL_MS` (the UI needs a glimpse, not the stream). On a
 * changelog it shows the materialized table instead: its first N rows, updated in place.
 */
import type { PreviewSinkConfig } from '../graph/types.ts';
import type {
  OperatorContext,
  OperatorOutput,
  OperatorSnapshot,
  RecordBatch,
  Row,
  StreamOperator,
} from '../contracts/operator.ts';
import type { OperatorServices } from '../contracts/operator-services.ts';
import { ChangelogTable } from './changelog-table.ts';
import { PREVIEW_SINK_DEFAULTS } from '../nodes/sink-preview/definition.ts';

const PREVIEW_INTERVAL_MS = 250;

export class PreviewSinkOperator implements StreamOperator {
  private readonly limit: number;
  private ring: Row[] = [];
  private dirty = false;
  private lastSent = 0;
  private target = '';
  private table: ChangelogTable | null = null;

  constructor(
    cfg: PreviewSinkConfig,
    private readonly services: OperatorServices,
  ) {
    this.limit = Math.max(1, cfg.limit ?? PREVIEW_SINK_DEFAULTS.limit);
  }

  async open(ctx: OperatorContext, _out: OperatorOutput): Promise<void> {
    this.target = `${ctx.nodeId}#${ctx.subtask}`;
  }

  async processBatch(batch: RecordBatch): Promise<void> {
    const rows = batch.rows;
    if (batch.kinds) {
      // A changelog: show the table it describes, rows updated in place (changelog-table.ts).
      this.table ??= new ChangelogTable();
      for (let i = 0; i < rows.length; i++) this.table.apply(batch.kinds[i], rows[i]);
      this.ring = this.table.rows(this.limit);
      this.dirty = true;
      this.flush(false);
      return;
    }
    if (rows.length >= this.limit) this.ring = rows.slice(rows.length - this.limit);
    else {
      this.ring.push(...rows);
      if (this.ring.length > this.limit) this.ring.splice(0, this.ring.length - this.limit);
    }
    this.dirty = true;
    this.flush(false);
  }

  private flush(force: boolean): void {
    const now = Date.now();
    if (!this.dirty || (!force && now - this.lastSent < PREVIEW_INTERVAL_MS)) return;
    this.lastSent = now;
    this.dirty = false;
    this.services.sendPreview(this.target, this.ring.slice());
  }

  async processWatermark(): Promise<void> {
    this.flush(false);
  }
  async snapshotState(): Promise<OperatorSnapshot> {
    return {};
  }
  async notifyCheckpointComplete(): Promise<void> {}
  async endInput(): Promise<void> {
    this.flush(true);
  }
  async close(): Promise<void> {
    this.flush(true);
  }
}
