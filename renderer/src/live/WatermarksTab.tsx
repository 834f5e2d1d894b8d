/**
 * Watermarks per operator, subtask and input channel, so a user can find the one channel that
 * holds a window back (the smallest non-idle channel watermark is the subtask's); late records
 * dropped per window operator.
 */
import { Fragment } from 'react';
import { useMetrics } from '../stores/metricsStore.ts';
import { useDoc } from '../state.ts';
import { liveIndex } from '../stores/nodeLive.ts';
import { count, duration, watermark } from './format.ts';
import { definitionOf } from '../../../engine/graph/node-types.ts';

export function WatermarksTab() {
  const byNode = useMetrics((s) => s.byNode);
  const idx = useMetrics(liveIndex);
  const nodes = useDoc((s) => s.job.nodes);
  // Operators that need event time are the ones that drop late records (windows, time-bounded joins).
  const windows = nodes.filter((n) => definitionOf(n).eventTime?.needs?.(n.config) === true);
  return (
    <div className="wm-tab">
      <div className="wm-head">
        newest event time seen by the sources: <b data-testid="newest-event-time">{watermark(idx.newestEventTime)}</b>
        {windows.length > 0 && (
          <span className="wm-late" data-testid="late-per-window">
            late records dropped:{' '}
            {windows.map((w) => (
              <span key={w.id} data-testid={`late-${w.id}`} data-count={idx.nodes.get(w.id)?.lateRecords ?? 0}>
                {w.name || w.id} <b>{count(idx.nodes.get(w.id)?.lateRecords ?? 0)}</b>{' '}
              </span>
            ))}
          </span>
        )}
      </div>
      <table className="live-table" data-testid="wm-table">
        <thead>
          <tr>
            <th>operator / subtask</th>
            <th>input channel</th>
            <th>watermark (UTC)</th>
            <th>lag</th>
            <th></th>
          </tr>
        </thead>
        <tbody>
          {nodes.map((n) => {
            const subs = byNode.get(n.id);
            if (!subs) return null;
            const live = idx.nodes.get(n.id);
            return (
              <Fragment key={n.id}>
                <tr className="live-table__group" data-testid={`wm-op-${n.id}`}>
                  <td>{n.name || n.id}</td>
                  <td className="dim">
                    {live?.inputs ? `${live.inputs / Math.max(1, live.subtasks)} channel(s) per subtask` : 'source'}
                  </td>
                  <td>{watermark(live?.watermark)}</td>
                  <td>{live?.lag == null ? '—' : duration(live.lag)}</td>
                  <td />
                </tr>
                {subs.map((m) => {
                  // The channel with the smallest watermark among the non-idle ones holds this subtask back.
                  let holder = -1;
                  m.inputWatermarks.forEach((c, i) => {
                    if (c.idle) return;
                    const h = holder >= 0 ? m.inputWatermarks[holder].watermark : undefined;
                    if (holder < 0 || (c.watermark ?? -Infinity) < (h ?? -Infinity)) holder = i;
                  });
                  // Holding back only means something when another active channel is further ahead.
                  if (m.inputWatermarks.filter((c) => !c.idle).length < 2) holder = -1;
                  const rows = m.inputWatermarks.length ? m.inputWatermarks : [null];
                  return rows.map((c, i) => (
                    <tr
                      key={`${m.subtask}-${i}`}
                      className={`live-table__sub${c?.idle ? ' is-idle' : ''}${i === holder ? ' is-holding' : ''}`}
                      data-testid={`wm-ch-${n.id}-${m.subtask}-${i}`}
                      data-idle={c?.idle ? 'true' : 'false'}
                    >
                      <td>{i === 0 ? `subtask ${m.subtask} → ${watermark(m.watermark)}` : ''}</td>
                      <td>
                        {c ? (
                          c.channel
                        ) : (
                          <span className="dim">(source: max event time {watermark(m.maxEventTime)})</span>
                        )}
                      </td>
                      <td>{c ? watermark(c.watermark) : watermark(m.watermark)}</td>
                      <td>
                        {c?.watermark != null && idx.newestEventTime !== null
                          ? duration(Math.max(0, idx.newestEventTime - c.watermark))
                          : ''}
                      </td>
                      <td>
                        {c?.idle ? (
                          <span className="tag tag--idle">idle</span>
                        ) : i === holder ? (
                          <span
                            className="tag tag--hold"
                            title="The smallest watermark among active channels: this one holds the subtask's watermark"
                          >
                            holding
                          </span>
                        ) : (
                          ''
                        )}
                      </td>
                    </tr>
                  ));
                })}
              </Fragment>
            );
          })}
          {byNode.size === 0 && (
            <tr>
              <td colSpan={5} className="live-table__empty">
                No metrics yet: run the job.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
