import type { JobNodeOf } from '../../graph/types.ts';
import type { ExportContext, Relation } from './context.ts';
import { quoteIdent, withOptions } from './identifiers.ts';
import { configDuration } from './intervals.ts';
import { flinkPath } from './paths.ts';
import { jdbcSinkTable } from './jdbc-sink.ts';
import { kafkaSinkTable } from './kafka-sink.ts';
import { fileSink } from '../../nodes/sink-file/definition.ts';
import { postgresSink } from '../../nodes/sink-postgres/definition.ts';
import { kafkaSink } from '../../nodes/sink-kafka/definition.ts';
import { previewSink } from '../../nodes/sink-preview/definition.ts';
import { blackholeSink } from '../../nodes/sink-blackhole/definition.ts';

type SinkNode = (
  | JobNodeOf<typeof fileSink.type>
  | JobNodeOf<typeof postgresSink.type>
  | JobNodeOf<typeof kafkaSink.type>
  | JobNodeOf<typeof previewSink.type>
  | JobNodeOf<typeof blackholeSink.type>
) & {
  parallelism: number;
};

/**
 * A sink as a table plus its INSERT INTO for the statement set. Only Weir's columns are written,
 * never the event-time attribute. Columns whose type was guessed from an expression are cast to the
 * declared type so the INSERT never fails on a type mismatch.
 */
export function emitSink(ctx: ExportContext, node: SinkNode, input: Relation): void {
  const comments = [ctx.origin(node)];
  const options: Array<[string, string]> = [];
  let primaryKey: string[] | null = null;
  if (node.type === fileSink.type) {
    const format =
      node.config.format === 'csv' ? 'csv' : node.config.format === 'changelog-json' ? 'debezium-json' : 'json';
    options.push(
      ['connector', 'filesystem'],
      ['path', flinkPath(ctx, node.config.path, ctx.path(node.id, 'config.path'), node.id)],
      ['format', format],
    );
    if (format === 'debezium-json') {
      comments.push(
        '-- A changelog: Flink writes each change as Debezium JSON ({"before", "after", "op"}), Weir as {"op", "data"}.',
      );
      ctx.warn(
        node,
        'config.format',
        'changelog-json is exported as Flink\'s debezium-json format: the same changes, each line shaped {"before", "after", "op"} instead of {"op", "data"}',
      );
    }
    const interval = ctx.job.settings.checkpointing.interval;
    if (interval === null) {
      ctx.warn(
        node,
        undefined,
        "checkpointing is off: Flink's filesystem sink commits its files only on checkpoints or at the end of bounded input",
      );
    } else {
      // Row formats (json, csv) roll a part file only by the rolling policy (128 MB or 30 min by
      // default), never on a checkpoint (FileSystemTableSink's TableRollingPolicy rolls on
      // checkpoints for bulk formats only); a part file becomes visible at the first checkpoint after
      // it rolled. Rolling every checkpoint interval makes files visible about as Weir's commits do.
      options.push(
        ['sink.rolling-policy.rollover-interval', configDuration(interval)],
        ['sink.rolling-policy.check-interval', configDuration(interval)],
      );
      comments.push(
        '-- Part files roll every checkpoint interval and are committed by the next checkpoint (in-progress files are hidden),',
        "-- close to Weir's two-phase-commit sink, which commits on every checkpoint.",
      );
    }
    if (format === 'csv')
      ctx.warn(node, 'config.format', "Flink's csv format writes no header line; Weir's CSV files start with one");
    if (node.parallelism !== ctx.job.settings.parallelism) options.push(['sink.parallelism', String(node.parallelism)]);
  } else if (node.type === postgresSink.type) {
    const t = jdbcSinkTable(ctx, node);
    options.push(...t.options);
    comments.push(...t.comments);
    primaryKey = t.primaryKey;
    if (node.parallelism !== ctx.job.settings.parallelism) options.push(['sink.parallelism', String(node.parallelism)]);
  } else if (node.type === kafkaSink.type) {
    const t = kafkaSinkTable(ctx, node, input);
    options.push(...t.options);
    comments.push(...t.comments);
    primaryKey = t.primaryKey;
    if (node.parallelism !== ctx.job.settings.parallelism) options.push(['sink.parallelism', String(node.parallelism)]);
  } else if (node.type === blackholeSink.type) {
    options.push(['connector', 'blackhole']);
    if (node.parallelism !== ctx.job.settings.parallelism) options.push(['sink.parallelism', String(node.parallelism)]);
  } else {
    options.push(['connector', 'print'], ['print-identifier', node.id]);
    comments.push(
      "-- sink.preview shows records in Weir's app; Flink prints them to the TaskManagers' stdout instead.",
    );
    const limit = node.config.limit;
    ctx.warn(
      node,
      undefined,
      `sink.preview is a preview in Weir's app; exported as Flink's print connector (TaskManager stdout)${limit !== undefined ? `, without its limit of ${limit} records` : ''}`,
    );
    if (node.parallelism !== ctx.job.settings.parallelism) options.push(['sink.parallelism', String(node.parallelism)]);
  }
  const items: string[] = [];
  const lines = input.columns.map((c) => {
    if (c.certain) items.push(quoteIdent(c.name));
    else {
      items.push(`CAST(${quoteIdent(c.name)} AS ${c.type}) AS ${quoteIdent(c.name)}`);
      if (c.type === 'STRING')
        ctx.warn(node, undefined, `the type of column '${c.name}' could not be worked out; written as STRING`);
    }
    return `  ${quoteIdent(c.name)} ${c.type}`;
  });
  if (primaryKey) lines.push(`  PRIMARY KEY (${primaryKey.map(quoteIdent).join(', ')}) NOT ENFORCED`);
  const name = quoteIdent(node.id);
  ctx.emit(`${comments.join('\n')}\nCREATE TABLE ${name} (\n${lines.join(',\n')}\n) ${withOptions(options)};`);
  ctx.inserts.push(`  ${ctx.origin(node)}\n  INSERT INTO ${name}\n  SELECT ${items.join(', ')}\n  FROM ${input.sql};`);
}
