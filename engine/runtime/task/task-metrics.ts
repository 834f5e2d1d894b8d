/** Per operator-subtask metrics of the task process (OperatorMetrics in engine/contracts/run-events.ts). */
import type { OperatorMetrics } from '../../contracts/run-events.ts';
import type { TaskSubtask } from './task-subtask.ts';
import type { PendingOutputReporter } from '../../contracts/operator-services.ts';

const previous = new Map<string, { time: number; in: number; out: number }>();
const previousTimes = new Map<string, { time: number; busy: number; blocked: number }>();

function finiteOrNull(w: number): number | null {
  return Number.isFinite(w) ? w : w === Infinity ? Number.MAX_SAFE_INTEGER : null;
}

function rates(id: string, recordsIn: number, recordsOut: number, now: number): { rateIn: number; rateOut: number } {
  const p = previous.get(id);
  previous.set(id, { time: now, in: recordsIn, out: recordsOut });
  if (!p || now <= p.time) return { rateIn: 0, rateOut: 0 };
  const dt = (now - p.time) / 1000;
  return { rateIn: (recordsIn - p.in) / dt, rateOut: (recordsOut - p.out) / dt };
}

/**
 * Flink's busy / back-pressured / idle time per second of wall clock over the last interval.
 * Busy is the element's own; back-pressured and idle are its subtask's (a chain shares one thread
 * and one output): idle is what neither its operators nor a full output took.
 */
export function times(
  id: string,
  busyMs: number,
  subtaskBusyMs: number,
  blockedMs: number,
  now: number,
): { busyMsPerSecond: number; backPressuredMsPerSecond: number; idleMsPerSecond: number } | Record<string, never> {
  const p = previousTimes.get(id);
  previousTimes.set(id, { time: now, busy: subtaskBusyMs, blocked: blockedMs });
  const own = previousTimes.get(`${id}/own`);
  previousTimes.set(`${id}/own`, { time: now, busy: busyMs, blocked: 0 });
  if (!p || !own || now <= p.time) return {};
  const perSecond = (d: number) => Math.max(0, Math.min(1000, Math.round((d * 1000) / (now - p.time))));
  const busy = perSecond(busyMs - own.busy);
  const blocked = perSecond(blockedMs - p.blocked);
  const idle = Math.max(0, 1000 - perSecond(subtaskBusyMs - p.busy) - blocked);
  return { busyMsPerSecond: busy, backPressuredMsPerSecond: blocked, idleMsPerSecond: idle };
}

export async function collectMetrics(subtasks: readonly TaskSubtask[]): Promise<OperatorMetrics[]> {
  const now = Date.now();
  const out: OperatorMetrics[] = [];
  for (const t of subtasks) {
    const bp = t.output.set.backPressure();
    const s = t.source;
    let subtaskBusy = s?.busyMs ?? 0;
    for (const l of t.chain.links) subtaskBusy += l.busyMs;
    if (s) {
      const id = `${s.nodeId}#${t.subtask}`;
      out.push({
        nodeId: s.nodeId,
        subtask: t.subtask,
        recordsIn: 0,
        recordsOut: s.recordsOut,
        ...rates(id, 0, s.recordsOut, now),
        watermark: finiteOrNull(s.watermark),
        inputWatermarks: [],
        maxEventTime: s.watermarks.maxTimestamp === -Infinity ? null : s.watermarks.maxTimestamp,
        lateRecords: 0,
        badRecords: s.badRecords,
        stateBytes: 0,
        stateDiskBytes: 0,
        backPressure: t.chain.links.length ? 0 : bp,
        // Idle: nothing to read for its idle timeout (downstream stops waiting for its watermark).
        idle: !s.exhausted && s.idleness.idle,
        ...times(id, s.busyMs, subtaskBusy, t.backPressuredMs, now),
        ...(s.reader.splitProgress ? { splits: s.reader.splitProgress() } : {}),
      });
    }
    const links = t.chain.links;
    for (let i = 0; i < links.length; i++) {
      const l = links[i];
      const id = `${l.nodeId}#${t.subtask}`;
      const inputWatermarks =
        i === 0 && t.valve
          ? t.valve.channels.map((c, k) => ({
              channel: t.gate!.channels[k].name,
              watermark: c.watermark === null ? null : finiteOrNull(c.watermark),
              idle: c.idle,
            }))
          : [
              {
                channel: i === 0 ? (s?.nodeId ?? 'source') : links[i - 1].nodeId,
                watermark: finiteOrNull(l.inputWatermark),
                idle: false,
              },
            ];
      const m: OperatorMetrics = {
        nodeId: l.nodeId,
        subtask: t.subtask,
        recordsIn: l.recordsIn,
        recordsOut: l.recordsOut,
        ...rates(id, l.recordsIn, l.recordsOut, now),
        watermark: finiteOrNull(l.inputWatermark),
        inputWatermarks,
        maxEventTime: null,
        lateRecords: l.lateRecords,
        badRecords: l.badRecords,
        stateBytes: 0,
        stateDiskBytes: 0,
        backPressure: i === links.length - 1 ? bp : 0,
        ...times(id, l.busyMs, subtaskBusy, t.backPressuredMs, now),
      };
      if (l.state) {
        const size = await l.state.size();
        m.stateBytes = size.liveBytes;
        m.stateDiskBytes = size.diskBytes;
      }
      const reporter = l.op as Partial<PendingOutputReporter>;
      if (typeof reporter.pendingOutput === 'function') {
        const p = reporter.pendingOutput();
        m.pendingRecords = p.records;
        m.pendingFiles = p.files;
      }
      out.push(m);
    }
  }
  return out;
}
