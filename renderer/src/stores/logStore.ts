/**
 * The run's log: every restart with its cause, failed checkpoints with their reason, bad-record
 * warnings (file and line), the job's failure, the runner's notices and the task process's stderr,
 * each stamped with the time it arrived. Kept for the whole run (capped at LOG_CAP, oldest dropped)
 * and cleared when the next run starts.
 *
 * The host's `log` events say their kind (`LogKind` in engine/contracts/run-events.ts): a
 * bad record's message is `<where>: <reason>`, a stderr line comes as the task process wrote it.
 */
import { createStore, useStore } from 'zustand';
import type { HostEvent } from '../../../engine/host/common/api.ts';
import { isDiscarded } from './checkpointStatus.ts';

export const LOG_CAP = 2000;

export type LogKind = 'restart' | 'failure' | 'checkpoint' | 'bad-record' | 'stderr' | 'notice';

export interface LogEntry {
  seq: number;
  time: number;
  level: 'info' | 'warn' | 'error';
  kind: LogKind;
  message: string;
}

export interface LogState {
  runId: string | null;
  entries: LogEntry[];
}

export const logStore = createStore<LogState>()(() => ({ runId: null, entries: [] }));

export function useLog<T>(selector: (s: LogState) => T): T {
  return useStore(logStore, selector);
}

let seq = 0;

/** Where the starting run restores from (beginRun), for its "job started" line; null: the start. */
let restoringFrom: string | null = null;

/** A run starts (or another run is adopted): its log starts empty. */
export function resetLog(restoreFrom: string | null = null): void {
  restoringFrom = restoreFrom;
  logStore.setState({ runId: null, entries: [] });
}

function add(runId: string, level: LogEntry['level'], kind: LogKind, message: string): void {
  const entries = logStore.getState().entries;
  const next = [...entries, { seq: ++seq, time: Date.now(), level, kind, message }];
  logStore.setState({ runId, entries: next.length > LOG_CAP ? next.slice(next.length - LOG_CAP) : next });
}

/** Failed checkpoints are logged once per id (their stats event may repeat). */
const loggedCheckpoints = new Set<string>();

export function applyLogEvent(ev: HostEvent): void {
  if (ev.type === 'app.command' || ev.type === 'metrics' || ev.type === 'preview' || ev.type === 'flink.run') return;
  const s = logStore.getState();
  // As in liveStore: the first event names the run (resetLog clears it when a run starts); events
  // of any other run are an older run's stragglers.
  if (s.runId !== null && s.runId !== ev.runId) return;
  if (ev.type === 'job.status') {
    if (
      ev.status === 'running' &&
      ev.restarts === 0 &&
      !logStore.getState().entries.some((e) => e.message.startsWith('job started'))
    ) {
      const from =
        restoringFrom === null
          ? ''
          : `, restored from ${restoringFrom === 'latest' ? 'the latest retained checkpoint' : restoringFrom}`;
      add(ev.runId, 'info', 'notice', `job started${from}`);
    } else if (ev.status === 'failed')
      add(ev.runId, 'error', 'failure', `job failed: ${ev.cause ?? 'no cause reported'}`);
    else if (ev.status === 'finished' || ev.status === 'stopped' || ev.status === 'canceled') {
      add(ev.runId, ev.cause ? 'warn' : 'info', 'notice', `job ${ev.status}${ev.cause ? `: ${ev.cause}` : ''}`);
    }
  } else if (ev.type === 'job.restart') {
    add(
      ev.runId,
      'error',
      'restart',
      `restart ${ev.restarts}: ${ev.cause}; ${ev.restoredCheckpoint === null ? 'from the start' : `from checkpoint #${ev.restoredCheckpoint}`}`,
    );
  } else if (ev.type === 'checkpoint') {
    const key = `${ev.runId}#${ev.stats.id}`;
    if (ev.stats.status !== 'failed' || isDiscarded(ev.stats) || loggedCheckpoints.has(key)) return;
    loggedCheckpoints.add(key);
    add(
      ev.runId,
      'warn',
      'checkpoint',
      `${ev.stats.kind} #${ev.stats.id} failed: ${ev.stats.failureReason ?? 'no reason reported'}`,
    );
  } else if (ev.type === 'log') {
    add(ev.runId, ev.level, ev.kind, ev.kind === 'bad-record' ? `bad record at ${ev.message}` : ev.message);
  }
}
