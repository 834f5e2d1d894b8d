/** Checkpoint history (newest first) with its chart; a row opens the checkpoint's detail. */
import { useMemo } from 'react';
import { useLive, openCheckpoint } from '../stores/liveStore.ts';
import { chartPoints } from './checkpointSummary.ts';
import { shownStatus } from '../stores/checkpointStatus.ts';
import { CheckpointChart } from './CheckpointChart.tsx';
import { CheckpointDetail } from './CheckpointDetail.tsx';
import { bytes, duration, timeOfDay } from './format.ts';

const HISTORY_ROWS = 60;

export function CheckpointsTab() {
  const list = useLive((s) => s.checkpoints);
  const detailId = useLive((s) => s.detailId);
  const incremental = useLive(
    (s) => s.config?.settings.stateBackend === 'rocksdb' && s.config.settings.checkpointing.incremental,
  );
  const points = useMemo(() => chartPoints(list), [list]);
  const detail = detailId === null ? null : (list.find((c) => c.id === detailId) ?? null);
  if (detail) return <CheckpointDetail stats={detail} />;
  const rows = list.slice(-HISTORY_ROWS).reverse();
  return (
    <div className="cp-tab">
      <CheckpointChart points={points} onPick={openCheckpoint} />
      <div className="cp-history">
        <table className="live-table" data-testid="cp-history">
          <thead>
            <tr>
              <th>id</th>
              <th>status</th>
              <th>type</th>
              <th>acked</th>
              <th>triggered</th>
              <th>end to end</th>
              <th title="Bytes written by this checkpoint (incremental: only what changed)">
                {incremental ? 'written (INCREMENTAL)' : 'checkpointed'}
              </th>
              <th title="All state the checkpoint refers to (incremental: including files shared with earlier ones)">
                {incremental ? 'FULL (incl. shared)' : 'full size'}
              </th>
              <th>reason</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={9} className="live-table__empty">
                  No checkpoint yet{'.'}
                </td>
              </tr>
            )}
            {rows.map((c) => {
              const st = shownStatus(c);
              return (
                <tr
                  key={c.id}
                  className={`cp-row cp-row--${st}`}
                  data-testid={`cp-row-${c.id}`}
                  data-status={st}
                  onClick={() => openCheckpoint(c.id)}
                >
                  <td>#{c.id}</td>
                  <td>
                    <span className={`cp-status cp-status--${st}`}>{st.replace('_', ' ')}</span>
                  </td>
                  <td>{c.kind}</td>
                  <td>
                    {c.acknowledged}/{c.total}
                  </td>
                  <td>{timeOfDay(c.triggerTime)}</td>
                  <td>{duration(c.duration)}</td>
                  <td>{bytes(c.checkpointedBytes)}</td>
                  <td>{bytes(c.fullBytes)}</td>
                  <td className="cp-row__reason" title={c.failureReason}>
                    {st === 'discarded' ? 'the job ended first (nothing lost)' : (c.failureReason ?? '')}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
