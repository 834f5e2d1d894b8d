/**
 * `WEIR_TRACE=1`: the host <-> task protocol on stderr, one line per message (metrics left out),
 * for diagnosing a run by hand. Read once at load; it never changes what a run does.
 */
import type { HostToTask, TaskToHost } from '../common/task-protocol.ts';

const TRACE = !!process.env.WEIR_TRACE;

export function traceToTask(m: HostToTask): void {
  if (!TRACE) return;
  const id = m.type === 'trigger' ? m.barrier.id : m.type === 'notify' ? m.checkpointId : '';
  process.stderr.write(`[weir trace] host -> task ${m.type} ${id}\n`);
}

export function traceFromTask(m: TaskToHost): void {
  if (!TRACE || m.type === 'metrics') return;
  const id = 'ack' in m ? m.ack.checkpointId : 'checkpointId' in m ? m.checkpointId : '';
  process.stderr.write(`[weir trace] task -> host ${m.type} ${id}\n`);
}
