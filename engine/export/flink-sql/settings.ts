import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_SETTINGS } from '../../graph/types.ts';
import type { ExportContext } from './context.ts';
import { setStatement } from './identifiers.ts';
import { configDuration } from './intervals.ts';

/**
 * The job's settings as SET statements with Flink's current configuration keys (the
 * `execution.checkpointing.*` names of Flink 1.20+; Flink 1.19 reads the same values from the older
 * `state.checkpoints.dir`, `state.checkpoint-storage`, `state.checkpoints.num-retained` and
 * `state.backend.incremental`, listed in docs/flink-export.md).
 */
export function settingsStatements(ctx: ExportContext, idleTimeout: number | null): string[] {
  const s = ctx.job.settings;
  const cp = s.checkpointing;
  const lines: string[] = [];
  lines.push('-- Weir runs streams in event time with UTC windows; the same here.');
  lines.push(setStatement('execution.runtime-mode', 'streaming'));
  lines.push(setStatement('table.local-time-zone', 'UTC'));
  lines.push(setStatement('parallelism.default', s.parallelism));
  lines.push(setStatement('pipeline.max-parallelism', s.maxParallelism));

  lines.push('', `-- State backend: Weir '${s.stateBackend}'.`);
  if (s.stateBackend === 'memory') {
    lines.push('-- memory = heap state with checkpoints kept in the JobManager\'s memory (lost with it).');
    if (s.memoryStateLimit !== DEFAULT_SETTINGS.memoryStateLimit) {
      ctx.warnJob('settings.memoryStateLimit',
        `memoryStateLimit ${s.memoryStateLimit} bytes has no Flink configuration key: Flink's jobmanager checkpoint storage keeps its built-in 5 MB limit per state`);
    }
  }
  lines.push(setStatement('state.backend.type', s.stateBackend === 'rocksdb' ? 'rocksdb' : 'hashmap'));
  lines.push(setStatement('execution.checkpointing.storage', s.stateBackend === 'memory' ? 'jobmanager' : 'filesystem'));
  if (s.stateBackend !== 'memory') lines.push(setStatement('execution.checkpointing.dir', checkpointUri(ctx)));

  lines.push('');
  if (cp.interval === null) {
    lines.push('-- Checkpointing is off in this job (no interval), as in Flink when no interval is set;');
    lines.push('-- the settings below apply once execution.checkpointing.interval is set.');
  } else {
    lines.push(setStatement('execution.checkpointing.interval', configDuration(cp.interval)));
  }
  lines.push(setStatement('execution.checkpointing.mode', cp.mode === 'exactly-once' ? 'EXACTLY_ONCE' : 'AT_LEAST_ONCE'));
  lines.push(setStatement('execution.checkpointing.timeout', configDuration(cp.timeout)));
  lines.push(setStatement('execution.checkpointing.min-pause', configDuration(cp.minPause)));
  lines.push(setStatement('execution.checkpointing.num-retained', cp.retained));
  lines.push(setStatement('execution.checkpointing.tolerable-failed-checkpoints', cp.tolerableFailures));
  if (cp.incremental && s.stateBackend !== 'rocksdb') {
    lines.push('-- incremental checkpoints exist only with RocksDB (in Weir and in Flink); ignored here.');
  }
  lines.push(setStatement('execution.checkpointing.incremental', cp.incremental && s.stateBackend === 'rocksdb'));

  lines.push('');
  if (s.restart.attempts === 0) {
    lines.push(setStatement('restart-strategy.type', 'none'));
  } else {
    lines.push(setStatement('restart-strategy.type', 'fixed-delay'));
    lines.push(setStatement('restart-strategy.fixed-delay.attempts', s.restart.attempts));
    lines.push(setStatement('restart-strategy.fixed-delay.delay', configDuration(s.restart.delay)));
  }
  if (idleTimeout !== null) {
    lines.push('', '-- eventTime.idleTimeout: a source split without data for this long stops holding the watermark back.');
    lines.push(setStatement('table.exec.source.idle-timeout', configDuration(idleTimeout)));
  }
  return lines;
}

/** Flink wants a URI; a relative Weir dir resolves against the job file's folder, as in Weir. */
function checkpointUri(ctx: ExportContext): string {
  const dir = ctx.job.settings.checkpointing.dir;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(dir)) return dir;
  if (isAbsolute(dir)) return pathToFileURL(dir).href;
  if (ctx.job.baseDir !== undefined) return pathToFileURL(resolve(ctx.job.baseDir, dir)).href;
  ctx.warnJob('settings.checkpointing.dir',
    `checkpoint dir '${dir}' is relative and the job's folder is unknown: Flink needs an absolute URI such as file:///path/${dir}`);
  return dir;
}
