/**
 * State per operator subtask for the backend in use: heap bytes (estimated) for memory/fs,
 * RocksDB's live data and files for rocksdb; beside it the last completed checkpoint's size,
 * incremental ("written by this checkpoint") and full ("all state it refers to") side by side;
 * for the memory backend, how close each snapshot came to `memoryStateLimit`.
 */
import { Fragment } from 'react';
import { useMetrics } from '../stores/metricsStore.ts';
import { useDoc } from '../state.ts';
import { useLive } from '../stores/liveStore.ts';
import { lastSubtaskSnapshot, limitSnapshot } from './checkpointSummary.ts';
import { bytes } from './format.ts';

export function StateTab() {
  const byNode = useMetrics((s) => s.byNode);
  const nodes = useDoc((s) => s.job.nodes);
  const list = useLive((s) => s.checkpoints);
  const settings = useLive((s) => s.config?.settings ?? null);
  const backend = settings?.stateBackend ?? 'memory';
  const incremental = backend === 'rocksdb' && !!settings?.checkpointing.incremental;
  const limit = settings?.memoryStateLimit ?? 0;
  const rocks = backend === 'rocksdb';
  return (
    <div className="state-tab">
      <div className="state-head" data-testid="state-backend" data-backend={backend}>
        backend <b className={`backend backend--${backend}`}>{backend}</b>
        <span className="dim">
          {rocks
            ? 'working state in RocksDB on local disk'
            : backend === 'fs'
              ? 'working state on the heap, snapshots to files'
              : "working state on the heap, snapshots kept in the host's memory"}
        </span>
        <span className={`snap-kind snap-kind--${incremental ? 'inc' : 'full'}`} data-testid="snapshot-kind">
          {incremental ? 'INCREMENTAL checkpoints' : 'FULL checkpoints'}
        </span>
      </div>
      <table className="live-table" data-testid="state-table">
        <thead>
          <tr>
            <th>operator / subtask</th>
            <th>{rocks ? 'RocksDB live data' : 'heap (estimated)'}</th>
            {rocks && <th>RocksDB files on disk</th>}
            <th title="Bytes the last completed checkpoint wrote for this subtask">
              {incremental ? 'last checkpoint: INCREMENTAL (written)' : 'last checkpoint size'}
            </th>
            {incremental && (
              <th title="All state the last checkpoint refers to, including files shared with earlier checkpoints">
                last checkpoint: FULL (referenced)
              </th>
            )}
            {backend === 'memory' && <th>of memory limit ({bytes(limit)})</th>}
          </tr>
        </thead>
        <tbody>
          {nodes.map((n) => {
            const subs = byNode.get(n.id);
            if (!subs) return null;
            return (
              <Fragment key={n.id}>
                {subs.map((m, i) => {
                  const snap = lastSubtaskSnapshot(list, n.id, m.subtask);
                  // The limit applies to a snapshot's full size; a refused one shows how far over it was.
                  const lim = backend === 'memory' ? limitSnapshot(list, n.id, m.subtask) : null;
                  const frac = limit > 0 && lim ? lim.stats.fullBytes / limit : 0;
                  return (
                    <tr
                      key={m.subtask}
                      className={i === 0 ? 'live-table__first' : ''}
                      data-testid={`state-${n.id}-${m.subtask}`}
                      data-bytes={m.stateBytes}
                    >
                      <td>
                        {i === 0 ? <b>{n.name || n.id}</b> : ''} <span className="dim">#{m.subtask}</span>
                      </td>
                      <td>{bytes(m.stateBytes)}</td>
                      {rocks && <td>{bytes(m.stateDiskBytes)}</td>}
                      <td>{snap ? bytes(snap.checkpointedBytes) : '—'}</td>
                      {incremental && <td>{snap ? bytes(snap.fullBytes) : '—'}</td>}
                      {backend === 'memory' && (
                        <td
                          data-testid={`limit-${n.id}-${m.subtask}`}
                          data-refused={lim?.refused ? 'true' : 'false'}
                          data-bytes={lim?.stats.fullBytes ?? ''}
                        >
                          <span
                            className={`limit-bar${lim?.refused ? ' is-over' : frac >= 0.8 ? ' is-near' : ''}`}
                            title={
                              lim?.refused
                                ? `refused: a snapshot of ${bytes(lim.stats.fullBytes)} is over the limit of ${bytes(limit)}`
                                : `${bytes(lim?.stats.fullBytes)} of ${bytes(limit)}`
                            }
                          >
                            <span style={{ width: `${Math.min(100, frac * 100)}%` }} />
                          </span>{' '}
                          {lim ? `${(frac * 100).toFixed(frac < 0.01 ? 3 : 1)}%` : '—'}
                          {lim?.refused && <b className="limit-refused"> refused ({bytes(lim.stats.fullBytes)})</b>}
                        </td>
                      )}
                    </tr>
                  );
                })}
              </Fragment>
            );
          })}
          {byNode.size === 0 && (
            <tr>
              <td colSpan={6} className="live-table__empty">
                No metrics yet: run the job.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
