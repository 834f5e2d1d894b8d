import type { JobNodeOf } from '../../graph/types.ts';
import type { ExportContext, Relation } from './context.ts';
import { quoteIdent, withOptions } from './identifiers.ts';

type SinkNode = (JobNodeOf<'sink.file'> | JobNodeOf<'sink.preview'>) & { parallelism: number };

/**
 * A sink as a table plus its INSERT INTO for the statement set. Only Weir's columns are written,
 * never the event-time attribute. Columns whose type was guessed from an expression are cast to the
 * declared type so the INSERT never fails on a type mismatch.
 */
export function emitSink(ctx: ExportContext, node: SinkNode, input: Relation): void {
  const comments = [ctx.origin(node)];
  const options: Array<[string, string]> = [];
  if (node.type === 'sink.file') {
    const format = node.config.format === 'csv' ? 'csv' : node.config.format === 'changelog-json' ? 'debezium-json' : 'json';
    options.push(['connector', 'filesystem'], ['path', node.config.path], ['format', format]);
    if (format === 'debezium-json') {
      comments.push('-- A changelog: Flink writes each change as Debezium JSON ({"before", "after", "op"}), Weir as {"op", "data"}.');
      ctx.warn(node, 'config.format', 'changelog-json is exported as Flink\'s debezium-json format: the same changes, each line shaped {"before", "after", "op"} instead of {"op", "data"}');
    }
    comments.push('-- Files are committed on checkpoints (in-progress files are hidden), like Weir\'s two-phase-commit sink.');
    if (ctx.job.settings.checkpointing.interval === null) {
      ctx.warn(node, undefined, 'checkpointing is off: Flink\'s filesystem sink commits its files only on checkpoints or at the end of bounded input');
    }
    if (format === 'csv') ctx.warn(node, 'config.format', 'Flink\'s csv format writes no header line; Weir\'s CSV files start with one');
    if (node.parallelism !== ctx.job.settings.parallelism) options.push(['sink.parallelism', String(node.parallelism)]);
  } else {
    options.push(['connector', 'print'], ['print-identifier', node.id]);
    comments.push('-- sink.preview shows records in Weir\'s app; Flink prints them to the TaskManagers\' stdout instead.');
    const limit = node.config.limit;
    ctx.warn(node, undefined, `sink.preview is a preview in Weir's app; exported as Flink's print connector (TaskManager stdout)${limit !== undefined ? `, without its limit of ${limit} records` : ''}`);
    if (node.parallelism !== ctx.job.settings.parallelism) options.push(['sink.parallelism', String(node.parallelism)]);
  }
  const items: string[] = [];
  const lines = input.columns.map((c) => {
    if (c.certain) items.push(quoteIdent(c.name));
    else {
      items.push(`CAST(${quoteIdent(c.name)} AS ${c.type}) AS ${quoteIdent(c.name)}`);
      if (c.type === 'STRING') ctx.warn(node, undefined, `the type of column '${c.name}' could not be worked out; written as STRING`);
    }
    return `  ${quoteIdent(c.name)} ${c.type}`;
  });
  const name = quoteIdent(node.id);
  ctx.emit(`${comments.join('\n')}\nCREATE TABLE ${name} (\n${lines.join(',\n')}\n) ${withOptions(options)};`);
  ctx.inserts.push(`  ${ctx.origin(node)}\n  INSERT INTO ${name}\n  SELECT ${items.join(', ')}\n  FROM ${input.sql};`);
}
