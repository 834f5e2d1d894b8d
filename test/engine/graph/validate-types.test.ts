// Typed validation (issue 22): every column a field names exists, with the nearest name offered,
// and every expression type-checks against its input's types as Flink's validator checks it. The
// source is a file whose columns are not declared but sampled, as in the report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateJob } from '../../../engine/graph/validate.ts';
import type { JobDocument, JobNode } from '../../../engine/graph/types.ts';
import { FUNCTIONS } from '../../../engine/sql/functions.ts';
import { errorsOf, lines } from './job-builders.ts';

const SAMPLED = { id: 'BIGINT', user: 'STRING', amount: 'BIGINT', ts: 'BIGINT' };
const sampled = (n: JobNode) => (n.type === 'source.file' && !n.config.columns ? SAMPLED : undefined);

const source = (id = 'orders'): JobNode => ({
  id,
  type: 'source.file',
  config: { path: `${id}.jsonl`, format: 'jsonl', eventTime: { field: 'ts' } },
});

/** source -> `mid` nodes in a chain -> preview sink. */
function chain(...mid: JobNode[]): JobDocument {
  const nodes = [source(), ...mid, { id: 'out', type: 'sink.preview', config: {} } as JobNode];
  return {
    format: 'weir.job/v1',
    name: 'typed',
    nodes,
    edges: nodes.slice(1).map((n, i) => ({ from: nodes[i].id, to: n.id })),
  };
}

const filter = (where: string): JobNode => ({ id: 'f', type: 'filter', config: { where } });
const map = (select: string): JobNode => ({ id: 'm', type: 'map', config: { select } });
const window = (keyBy: string, aggregates: string): JobNode => ({
  id: 'w',
  type: 'window',
  config: { keyBy, window: { kind: 'tumbling', size: '10s' }, aggregates },
});
const aggregate = (keyBy: string, aggregates: string): JobNode => ({
  id: 'a',
  type: 'aggregate',
  config: { keyBy, aggregates },
});

function errors(doc: JobDocument): string[] {
  const r = validateJob(doc, { sampled });
  assert.equal(r.ok, false, 'expected the job to be refused');
  return lines(errorsOf(r.problems));
}

function join(leftKey: string, rightKey: string, select: string): JobDocument {
  const right: JobNode = {
    id: 'users',
    type: 'source.file',
    config: {
      path: 'users.jsonl',
      format: 'jsonl',
      columns: { user: 'STRING', country: 'STRING', id: 'STRING', ts: 'BIGINT' },
      eventTime: { field: 'ts' },
    },
  };
  return {
    format: 'weir.job/v1',
    name: 'join',
    nodes: [
      source(),
      right,
      { id: 'j', type: 'join', config: { kind: 'inner', leftKey, rightKey, select } },
      { id: 'out', type: 'sink.preview', config: {} },
    ],
    edges: [
      { from: 'orders', to: 'j', toPort: 'left' },
      { from: 'users', to: 'j', toPort: 'right' },
      { from: 'j', to: 'out' },
    ],
  };
}

const COLUMNS = '(columns: id, user, amount, ts';

test('the well-typed jobs of the issue validate', () => {
  for (const doc of [
    chain(filter('amount > 20'), window('user', 'SUM(amount) AS total')),
    chain(map('user, amount * 2 AS double_amount, ts'), aggregate('user', 'AVG(double_amount) AS avg')),
    join('user', 'user', 'L.user, L.amount, R.country'),
  ]) {
    const r = validateJob(doc, { sampled });
    assert.equal(r.ok, true, JSON.stringify(r.problems));
  }
});

test('unknown columns: each field kind, at its path, with the columns and the nearest name', () => {
  assert.deepEqual(errors(chain(filter('amout > 20'))), [
    `nodes[1].config.where: unknown column 'amout' ${COLUMNS}; did you mean 'amount'?)`,
  ]);
  assert.deepEqual(errors(chain(map('usr, amount'))), [
    `nodes[1].config.select: unknown column 'usr' ${COLUMNS}; did you mean 'user'?)`,
  ]);
  assert.deepEqual(errors(chain(window('usr', 'SUM(amount) AS total'))), [
    `nodes[1].config.keyBy: unknown column 'usr' ${COLUMNS}; did you mean 'user'?)`,
  ]);
  assert.deepEqual(errors(chain(window('user', 'SUM(price) AS total'))), [
    `nodes[1].config.aggregates: unknown column 'price' ${COLUMNS})`,
  ]);
  assert.deepEqual(errors(chain(aggregate('usr', 'COUNT(*) AS n'))), [
    `nodes[1].config.keyBy: unknown column 'usr' ${COLUMNS}; did you mean 'user'?)`,
  ]);
  assert.deepEqual(errors(join('usr', 'user', 'L.user')), [
    `nodes[2].config.leftKey: unknown column 'usr' ${COLUMNS}; did you mean 'user'?)`,
  ]);
  const bad = source();
  (bad.config as { eventTime: { field: string } }).eventTime.field = 'tss';
  assert.deepEqual(errors({ ...chain(), nodes: [bad, chain().nodes[1]] }), [
    `nodes[0].config.eventTime.field: unknown column 'tss' ${COLUMNS}; did you mean 'ts'?)`,
  ]);
});

test('a type error names the operator and the argument types', () => {
  assert.deepEqual(errors(chain(filter("amount + 'x' > 1"))), [
    "nodes[1].config.where: Cannot apply '+' to arguments of type '<BIGINT> + <STRING>' (column 8)",
  ]);
  assert.deepEqual(errors(chain(map('user || amount AS s'))), [
    "nodes[1].config.select: Cannot apply '||' to arguments of type '<STRING> || <BIGINT>' (column 6)",
  ]);
});

test('a condition must be boolean: a BIGINT used as one is refused', () => {
  assert.deepEqual(errors(chain(filter('amount'))), [
    'nodes[1].config.where: the condition must be a boolean expression, not BIGINT (column 1)',
  ]);
  assert.deepEqual(errors(chain(filter("amount OR user = 'a'"))), [
    'nodes[1].config.where: OR expects a boolean operand, not BIGINT (column 8)',
  ]);
});

test('SUM and AVG over a non-numeric column are refused, in a window and in an aggregate', () => {
  assert.deepEqual(errors(chain(window('id', 'SUM(user) AS total'))), [
    "nodes[1].config.aggregates: Cannot apply 'SUM' to arguments of type 'SUM(<STRING>)'. Supported form(s): 'SUM(<NUMERIC>)' (column 1)",
  ]);
  assert.deepEqual(errors(chain(aggregate('id', 'COUNT(*) AS n, AVG(user) AS a'))), [
    "nodes[1].config.aggregates: Cannot apply 'AVG' to arguments of type 'AVG(<STRING>)'. Supported form(s): 'AVG(<NUMERIC>)' (column 16)",
  ]);
  // COUNT, MIN and MAX take any type.
  assert.equal(validateJob(chain(window('id', 'MIN(user) AS u, COUNT(user) AS n')), { sampled }).ok, true);
});

test('a join: keys of types Flink cannot compare, an ambiguous select column', () => {
  assert.deepEqual(errors(join('amount', 'user', 'L.user')), [
    "nodes[2].config.rightKey: Cannot apply '=' to arguments of type '<BIGINT> = <STRING>': the join compares L.amount with R.user",
  ]);
  assert.deepEqual(errors(join('user', 'user', 'user, R.country')), [
    "nodes[2].config.select: ambiguous column 'user': both inputs have it; write L.user or R.user (column 1)",
  ]);
  // A typed side is checked in the select as well.
  assert.deepEqual(errors(join('user', 'user', 'L.amount + R.country AS x')), [
    "nodes[2].config.select: Cannot apply '+' to arguments of type '<BIGINT> + <STRING>' (column 10)",
  ]);
});

test('an event-time column must hold epoch milliseconds or a timestamp', () => {
  const doc = chain();
  (doc.nodes[0].config as { columns?: Record<string, string> }).columns = { ts: 'DOUBLE', v: 'BIGINT' };
  assert.deepEqual(errors(doc), [
    "nodes[0].config.eventTime.field: event-time column 'ts' is DOUBLE: it must hold epoch milliseconds (BIGINT) or a timestamp (TIMESTAMP(3) or an ISO-8601 STRING)",
  ]);
});

test(
  'UPPER of a BIGINT is refused once the catalog declares UPPER(STRING)',
  { skip: !FUNCTIONS.UPPER?.params && 'FunctionSpec.params come from the function catalog (branch funcs)' },
  () => {
    const [line] = errors(chain(filter("UPPER(amount) = 'A'")));
    assert.match(line, /^nodes\[1\]\.config\.where: Cannot apply 'UPPER' to arguments of type 'UPPER\(<BIGINT>\)'/);
  },
);

test('a source nothing can type is a warning, and its columns stay unchecked', () => {
  const r = validateJob(chain(filter('amout > 20')), { sampled: () => undefined });
  assert.equal(r.ok, true, JSON.stringify(r.problems));
  assert.deepEqual(
    r.problems.map((p) => [p.path, p.severity]),
    [['nodes[0].config.columns', 'warning']],
  );
  assert.match(r.problems[0].message, /columns of 'orders' are unknown .* checked only when the run starts/);
  // Without a sampler (a caller that cannot read files) nothing is claimed either way.
  assert.deepEqual(validateJob(chain(filter('amout > 20'))).problems, []);
});

test('top-N order: its columns exist, its expressions type-check, and only comparable types are ordered', () => {
  const topn = (orderBy: string): JobNode => ({
    id: 't',
    type: 'topn',
    config: { partitionBy: 'user', orderBy, limit: 3 },
  });
  assert.equal(validateJob(chain(topn('amount DESC, ts')), { sampled }).ok, true);
  assert.deepEqual(errors(chain(topn('amout DESC'))), [
    `nodes[1].config.orderBy: unknown column 'amout' ${COLUMNS}; did you mean 'amount'?)`,
  ]);
  assert.deepEqual(errors(chain(topn('UPPER(amount) DESC'))), [
    "nodes[1].config.orderBy: Cannot apply 'UPPER' to arguments of type 'UPPER(<BIGINT>)'. Supported form(s): 'UPPER(s STRING) → STRING' (column 1)",
  ]);
  // A declared ARRAY, MAP or ROW column cannot be ordered (Flink's planner refuses it too).
  const doc = chain(topn('tags DESC, amount'));
  (doc.nodes[0].config as { columns?: Record<string, string> }).columns = {
    user: 'STRING',
    amount: 'BIGINT',
    ts: 'BIGINT',
    tags: 'ARRAY<STRING>',
  };
  assert.deepEqual(errors(doc), [
    "nodes[1].config.orderBy: cannot order by 'tags': ARRAY<STRING> is not a comparable type (order by a column of an atomic type, or an element of it) (column 1)",
  ]);
});
