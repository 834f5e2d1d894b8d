import { DEFAULT_SETTINGS } from '../../graph/types.ts';
import type { ExportContext } from './context.ts';
import { setStatement } from './identifiers.ts';
import { configDuration } from './intervals.ts';
import { flinkPath } from './paths.ts';
import { checkpointKeys } from './versions.ts';

/**
 * The job's settings as SET statements with the configuration keys of the target Flink version
 * (versions.ts: `execution.checkpointing.*` from 1.20, the older `state.*` names for 1.19).
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
  // Weir judges lateness per record against the watermark its source had just before it. Flink
  // SQL's WatermarkAssignerOperator emits a watermark once it advanced by more than this interval
  // (200 ms by default), so fewer records would be late; at 0 it emits on every advance, as Weir.
  lines.push('-- Watermarks on every advance, not every 200 ms: the same records are late as in Weir.');
  lines.push(setStatement('pipeline.auto-watermark-interval', '0 ms'));

  lines.push('', `-- State backend: Weir '${s.stateBackend}'.`);
  if (s.stateBackend === 'memory') {
    lines.push("-- memory = heap state with checkpoints kept in the JobManager's memory (lost with it).");
    if (s.memoryStateLimit !== DEFAULT_SETTINGS.memoryStateLimit) {
      ctx.warnJob(
        'settings.memoryStateLimit',
        `memoryStateLimit ${s.memoryStateLimit} bytes has no Flink configuration key: Flink's jobmanager checkpoint storage keeps its built-in 5 MB limit per state`,
      );
    }
  }
  lines.push(setStatement('state.backend.type', s.stateBackend === 'rocksdb' ? 'rocksdb' : 'hashmap'));
  const keys = checkpointKeys(ctx.version);
  lines.push(setStatement(keys.storage, s.stateBackend === 'memory' ? 'jobmanager' : 'filesystem'));
  if (s.stateBackend !== 'memory')
    lines.push(setStatement(keys.dir, flinkPath(ctx, s.checkpointing.dir, 'settings.checkpointing.dir')));

  lines.push('');
  if (cp.interval === null) {
    lines.push('-- Checkpointing is off in this job (no interval), as in Flink when no interval is set;');
    lines.push('-- the settings below apply once execution.checkpointing.interval is set.');
  } else {
    lines.push(setStatement('execution.checkpointing.interval', configDuration(cp.interval)));
  }
  lines.push(
    setStatement('execution.checkpointing.mode', cp.mode === 'exactly-once' ? 'EXACTLY_ONCE' : 'AT_LEAST_ONCE'),
  );
  lines.push(setStatement('execution.checkpointing.timeout', configDuration(cp.timeout)));
  lines.push(setStatement('execution.checkpointing.min-pause', configDuration(cp.minPause)));
  lines.push(setStatement(keys.retained, cp.retained));
  lines.push(setStatement('execution.checkpointing.tolerable-failed-checkpoints', cp.tolerableFailures));
  if (cp.incremental && s.stateBackend !== 'rocksdb') {
    lines.push('-- incremental checkpoints exist only with RocksDB (in Weir and in Flink); ignored here.');
  }
  lines.push(setStatement(keys.incremental, cp.incremental && s.stateBackend === 'rocksdb'));

  lines.push('');
  if (s.restart.attempts === 0) {
    lines.push(setStatement('restart-strategy.type', 'none'));
  } else {
    lines.push(setStatement('restart-strategy.type', 'fixed-delay'));
    lines.push(setStatement('restart-strategy.fixed-delay.attempts', s.restart.attempts));
    lines.push(setStatement('restart-strategy.fixed-delay.delay', configDuration(s.restart.delay)));
  }
  if (idleTimeout !== null) {
    lines.push(
      '',
      '-- eventTime.idleTimeout: a source split without data for this long stops holding the watermark back.',
    );
    lines.push(setStatement('table.exec.source.idle-timeout', configDuration(idleTimeout)));
  }
  return lines;
}
