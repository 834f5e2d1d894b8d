// FunctionSpec.params checked by the compiler (issue 22): a function's arguments against the
// parameter families its spec declares, with Flink's message; UNKNOWN arguments pass. The specs
// here are local: the catalog's own params come from engine/sql/functions.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { paramProblem } from '../../../engine/sql/function-params.ts';
import { commonType, illegalMixing } from '../../../engine/sql/common-type.ts';
import { checkExpression, type ColumnType } from '../../../engine/sql/index.ts';
import type { Compiled, FunctionSpec } from '../../../engine/sql/types.ts';

const arg = (type: Compiled['type'], extra: Partial<Compiled> = {}): Compiled => ({
  fn: () => null,
  type,
  constant: false,
  ...extra,
});
const spec = (params: FunctionSpec['params'], signature?: string) => ({ params, signature });

test('a declared family refuses other known types, as Flink says it', () => {
  assert.equal(
    paramProblem('UPPER', spec(['STRING'], 'UPPER(STRING) → STRING'), [arg('BIGINT')]),
    "Cannot apply 'UPPER' to arguments of type 'UPPER(<BIGINT>)'. Supported form(s): 'UPPER(STRING) → STRING'",
  );
  assert.equal(
    paramProblem('LPAD', spec(['STRING', 'INTEGER', 'STRING']), [arg('STRING'), arg('DOUBLE'), arg('STRING')]),
    "Cannot apply 'LPAD' to arguments of type 'LPAD(<STRING>, <DOUBLE>, <STRING>)'",
  );
  assert.equal(paramProblem('ABS', spec(['NUMERIC']), [arg('BIGINT', { precision: 10 })]), null, 'an INT is NUMERIC');
  assert.match(paramProblem('ABS', spec(['NUMERIC']), [arg('STRING')]) ?? '', /'ABS\(<STRING>\)'/);
});

test('UNKNOWN passes, a known number only where numbers go; the last family repeats', () => {
  assert.equal(paramProblem('UPPER', spec(['STRING']), [arg('UNKNOWN')]), null);
  assert.match(
    paramProblem('UPPER', spec(['STRING']), [arg('UNKNOWN', { numeric: true })]) ?? '',
    /UPPER\(<NUMERIC>\)/,
  );
  assert.equal(paramProblem('ABS', spec(['NUMERIC']), [arg('UNKNOWN', { numeric: true })]), null);
  const concatWs = spec(['STRING']);
  assert.equal(paramProblem('CONCAT_WS', concatWs, [arg('STRING'), arg('STRING'), arg('UNKNOWN')]), null);
  assert.match(paramProblem('CONCAT_WS', concatWs, [arg('STRING'), arg('STRING'), arg('BOOLEAN')]) ?? '', /<BOOLEAN>/);
  assert.equal(paramProblem('DATE_FORMAT', spec(['TIMESTAMP', 'STRING']), [arg('STRING'), arg('STRING')]), null);
  assert.equal(paramProblem('X', spec(undefined), [arg('BOOLEAN')]), null, 'no params: not checked');
  assert.equal(paramProblem('X', spec(['ANY']), [arg('BOOLEAN')]), null);
});

test('CASE, COALESCE and IF need a common type, which is their result type', () => {
  const types = new Map<string, ColumnType>([
    ['n', { type: 'BIGINT' }],
    ['d', { type: 'DOUBLE' }],
    ['s', { type: 'STRING' }],
    ['b', { type: 'BOOLEAN' }],
  ]);
  assert.equal(checkExpression('select', 'COALESCE(n, d) AS x, CASE WHEN b THEN s ELSE NULL END AS y', types), null);
  assert.equal(
    checkExpression('select', 'CASE WHEN b THEN s ELSE n END AS x', types)?.message,
    'Illegal mixing of types in CASE: STRING, BIGINT (column 1)',
  );
  assert.match(
    checkExpression('select', 'COALESCE(s, b) AS x', types)?.message ?? '',
    /^Illegal mixing of types in COALESCE: STRING, BOOLEAN/,
  );
  assert.match(
    checkExpression('select', "IF(b, n, 'x') AS x", types)?.message ?? '',
    /^Illegal mixing of types in IF: BIGINT, STRING/,
  );
  assert.deepEqual(
    commonType([
      { type: 'BIGINT', precision: 10 },
      { type: 'DECIMAL', precision: 10, scale: 2 },
    ]),
    {
      type: 'DECIMAL',
      precision: 12,
      scale: 2,
    },
  );
  assert.equal(
    illegalMixing('CASE', [{ type: 'UNKNOWN' }, { type: 'STRING' }]),
    'Illegal mixing of types in CASE: STRING',
  );
});
