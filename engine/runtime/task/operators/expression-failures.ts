/**
 * Names the node when an expression fails on a value (a CAST of '12x' AS INT, an integer division
 * by zero): Flink fails the job there, and so does Weir, with `nodes[2].config.select: CAST('12x'
 * AS INT) failed: ...` instead of a bare message. Only `SqlRuntimeError`s are renamed; anything
 * else passes through untouched.
 */
import type { StreamOperator } from '../../../contracts/operator.ts';
import { SqlRuntimeError } from '../../../sql/index.ts';

export class ExpressionFailure extends Error {
  override name = 'ExpressionFailure';
}

export function nameExpressionFailures(op: StreamOperator, path: string): StreamOperator {
  const rename = (e: unknown): unknown =>
    e instanceof SqlRuntimeError ? new ExpressionFailure(`${path}: ${e.message}`) : e;
  const processBatch = op.processBatch.bind(op);
  op.processBatch = (batch, input) => {
    try {
      return processBatch(batch, input).catch((e: unknown) => Promise.reject(rename(e)));
    } catch (e) {
      return Promise.reject(rename(e));
    }
  };
  return op;
}
