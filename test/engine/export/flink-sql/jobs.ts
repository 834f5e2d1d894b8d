/** Jobs used by the Flink export tests, built as written documents and normalized like `weir` does. */
import { fileURLToPath } from 'node:url';
import { normalizeJob } from '../../../../engine/graph/normalize.ts';
import type { JobDocument, NormalizedJob } from '../../../../engine/graph/types.ts';

export const DATA_DIR = fileURLToPath(new URL('./data/', import.meta.url));

export function job(doc: Omit<JobDocument, 'format'>, baseDir = DATA_DIR): NormalizedJob {
  return normalizeJob({ format: 'weir.job/v1', ...doc }, baseDir);
}

/** The example of the job-format issue: file source, filter, keyed tumbling window, file sink. */
export const ordersPerUser: Omit<JobDocument, 'format'> = {
  name: 'orders-per-user',
  settings: {
    stateBackend: 'fs',
    checkpointing: {
      interval: '1s',
      mode: 'exactly-once',
      timeout: '10m',
      minPause: '0ms',
      retained: 1,
      incremental: false,
      dir: 'checkpoints',
    },
    memoryStateLimit: '5mb',
    parallelism: 1,
    maxParallelism: 128,
    restart: { attempts: 3, delay: '1s' },
  },
  nodes: [
    {
      id: 'orders',
      type: 'source.file',
      name: 'Orders',
      position: { x: 0, y: 0 },
      config: {
        path: 'orders.jsonl',
        format: 'jsonl',
        eventTime: { field: 'ts', maxOutOfOrderness: '5s', idleTimeout: '30s' },
      },
    },
    { id: 'big', type: 'filter', config: { where: 'amount >= 10' } },
    {
      id: 'per_user',
      type: 'window',
      config: {
        keyBy: 'user',
        window: { kind: 'tumbling', size: '10s' },
        aggregates: 'COUNT(*) AS n, SUM(amount) AS total, MAX(amount) AS top',
        allowedLateness: '0s',
      },
    },
    { id: 'out', type: 'sink.file', config: { path: 'out/per_user', format: 'jsonl' } },
  ],
  edges: [
    { from: 'orders', to: 'big' },
    { from: 'big', to: 'per_user' },
    { from: 'per_user', to: 'out' },
  ],
};

/** Every node type, every window kind, the late port, a union and a preview. */
export const everything: Omit<JobDocument, 'format'> = {
  name: 'every-node',
  settings: {
    stateBackend: 'rocksdb',
    checkpointing: {
      interval: '30s',
      mode: 'at-least-once',
      incremental: true,
      dir: '/var/weir/checkpoints',
      retained: 3,
      minPause: '500ms',
      tolerableFailures: 2,
    },
    parallelism: 2,
    maxParallelism: 256,
    restart: { attempts: 5, delay: '10s' },
  },
  nodes: [
    {
      id: 'gen',
      type: 'source.generator',
      name: 'Generated',
      config: {
        seed: 7,
        count: 100000,
        rate: 5000,
        keys: 4,
        outOfOrderness: '200ms',
        eventTime: { field: 'ts', maxOutOfOrderness: '250ms' },
      },
    },
    {
      id: 'clicks',
      type: 'source.file',
      name: 'Clicks',
      config: {
        path: 'clicks.csv',
        format: 'csv',
        follow: true,
        onBadRecord: 'fail',
        eventTime: { field: 'at', maxOutOfOrderness: '2m', idleTimeout: '1m' },
      },
    },
    {
      id: 'orders',
      type: 'source.file',
      config: {
        path: 'orders.jsonl',
        format: 'jsonl',
        columns: { user: 'STRING', amount: 'DOUBLE', ts: 'BIGINT' },
        eventTime: { field: 'ts', idleTimeout: '10s' },
      },
    },
    {
      id: 'gen_keyed',
      type: 'map',
      config: { select: 'key AS `user`, value * 2 AS amount, ts, UPPER(key) AS shout, value > 500 AS big' },
    },
    {
      id: 'orders_slim',
      type: 'map',
      config: { select: 'user, amount, ts, UPPER(user) AS shout, amount > 500 AS big' },
    },
    { id: 'all_orders', type: 'union', config: {} },
    { id: 'valid', type: 'filter', config: { where: "user <> 'nobody' AND amount BETWEEN 0 AND 1000" } },
    {
      id: 'tumble',
      type: 'window',
      config: {
        keyBy: 'user',
        window: { kind: 'tumbling', size: '1m' },
        aggregates: 'COUNT(*) AS n, AVG(amount) AS mean',
      },
    },
    {
      id: 'slide',
      type: 'window',
      config: {
        window: { kind: 'sliding', size: '10s', slide: '5s' },
        aggregates: 'SUM(amount) AS total, MIN(amount) AS low',
      },
    },
    {
      id: 'odd_slide',
      type: 'window',
      config: { keyBy: 'user', window: { kind: 'sliding', size: '10s', slide: '3s' }, aggregates: 'COUNT(*) AS n' },
    },
    {
      id: 'sessions',
      type: 'window',
      name: 'Click sessions',
      config: {
        keyBy: 'user',
        window: { kind: 'session', gap: '30s' },
        aggregates: 'COUNT(*) AS clicks',
        allowedLateness: '5s',
      },
    },
    { id: 'per_minute', type: 'sink.file', config: { path: 'out/per_minute', format: 'csv' } },
    { id: 'sliding_out', type: 'sink.file', parallelism: 1, config: { path: 'out/sliding', format: 'jsonl' } },
    { id: 'odd_out', type: 'sink.file', config: { path: 'out/odd', format: 'jsonl' } },
    { id: 'session_preview', type: 'sink.preview', config: { limit: 50 } },
    { id: 'late_clicks', type: 'sink.file', config: { path: 'out/late', format: 'jsonl' } },
    {
      id: 'per_user_total',
      type: 'aggregate',
      config: {
        keyBy: 'user',
        aggregates: 'COUNT(*) AS n, SUM(amount) FILTER (WHERE big) AS big_total, COUNT(DISTINCT shout) AS shouts',
      },
    },
    { id: 'top_orders', type: 'topn', config: { partitionBy: 'user', orderBy: 'amount DESC, ts ASC', limit: 2 } },
    {
      id: 'joined',
      type: 'join.interval',
      config: {
        leftKey: 'user',
        rightKey: 'user',
        lower: '-1m',
        upper: '30s',
        select: 'L.user, L.amount, R.page, R.at AS clicked_at',
      },
    },
    { id: 'totals_out', type: 'sink.file', config: { path: 'out/totals', format: 'changelog-json' } },
    { id: 'top_preview', type: 'sink.preview', config: {} },
    { id: 'joined_out', type: 'sink.file', config: { path: 'out/joined', format: 'jsonl' } },
    {
      id: 'outer',
      type: 'join',
      config: {
        kind: 'full',
        leftKey: 'user',
        rightKey: 'user',
        select: 'L.user, R.user AS click_user, L.amount, R.page',
        stateTtl: '1h',
      },
    },
    {
      id: 'per_window',
      type: 'join.window',
      config: {
        leftKey: 'user',
        rightKey: 'user',
        window: { kind: 'tumbling', size: '1m' },
        select: 'window_start, window_end, L.user, L.amount, R.page',
      },
    },
    { id: 'outer_out', type: 'sink.file', config: { path: 'out/outer', format: 'changelog-json' } },
    {
      id: 'top_per_minute',
      type: 'topn',
      config: { partitionBy: 'user', orderBy: 'amount DESC', limit: 3, window: { kind: 'tumbling', size: '1m' } },
    },
    { id: 'top_per_minute_out', type: 'sink.file', config: { path: 'out/top_per_minute', format: 'jsonl' } },
    { id: 'per_window_out', type: 'sink.file', config: { path: 'out/per_window', format: 'jsonl' } },
    {
      id: 'totals_pg',
      type: 'sink.postgres',
      config: {
        url: 'postgresql://weir@db.example:5432/shop',
        passwordEnv: 'SHOP_PG_PASSWORD',
        table: 'public.user_totals',
        mode: 'upsert',
        key: 'user',
      },
    },
    {
      id: 'pg_orders',
      type: 'source.postgres',
      config: {
        url: 'postgresql://weir@db.example:5433/shop',
        passwordEnv: 'SHOP_PASSWORD',
        table: 'sales.orders',
        mode: 'cdc',
        columns: { id: 'BIGINT', customer: 'STRING', amount: 'DECIMAL(10, 2)', placed_at: 'TIMESTAMP(3)' },
        primaryKey: 'id',
        eventTime: { field: 'placed_at', maxOutOfOrderness: '5s' },
      },
    },
    { id: 'pg_orders_out', type: 'sink.file', config: { path: 'out/pg_orders', format: 'changelog-json' } },
    {
      id: 'pg_customers',
      type: 'source.postgres',
      config: {
        url: 'postgresql://weir@db.example/shop',
        table: 'customers',
        mode: 'snapshot',
        columns: { id: 'INT', name: 'STRING' },
        primaryKey: 'id',
      },
    },
    { id: 'pg_customers_out', type: 'sink.preview', config: {} },
    {
      id: 'totals_kafka',
      type: 'sink.kafka',
      config: {
        bootstrap: 'kafka.example:9092',
        topic: 'user-totals',
        format: 'jsonl',
        key: 'user',
        guarantee: 'exactly-once',
      },
    },
    {
      id: 'kafka_orders',
      type: 'source.kafka',
      config: {
        bootstrap: 'kafka.example:9092',
        topic: 'orders',
        format: 'jsonl',
        stopAt: 'latest',
        group: 'weir-orders',
        columns: { id: 'BIGINT', amount: 'DOUBLE', ts: 'BIGINT' },
        eventTime: { field: 'ts', maxOutOfOrderness: '2s' },
      },
    },
    { id: 'kafka_orders_out', type: 'sink.preview', config: {} },
    { id: 'discarded', type: 'sink.blackhole', config: {} },
  ],
  edges: [
    { from: 'gen', to: 'gen_keyed' },
    { from: 'orders', to: 'orders_slim' },
    { from: 'gen_keyed', to: 'all_orders' },
    { from: 'orders_slim', to: 'all_orders' },
    { from: 'all_orders', to: 'valid' },
    { from: 'valid', to: 'tumble' },
    { from: 'valid', to: 'slide' },
    { from: 'valid', to: 'odd_slide' },
    { from: 'clicks', to: 'sessions' },
    { from: 'tumble', to: 'per_minute' },
    { from: 'slide', to: 'sliding_out' },
    { from: 'odd_slide', to: 'odd_out' },
    { from: 'sessions', to: 'session_preview' },
    { from: 'sessions', to: 'late_clicks', fromPort: 'late' },
    { from: 'valid', to: 'per_user_total' },
    { from: 'valid', to: 'top_orders' },
    { from: 'valid', to: 'joined', toPort: 'left' },
    { from: 'clicks', to: 'joined', toPort: 'right' },
    { from: 'per_user_total', to: 'totals_out' },
    { from: 'top_orders', to: 'top_preview' },
    { from: 'joined', to: 'joined_out' },
    { from: 'valid', to: 'outer', toPort: 'left' },
    { from: 'clicks', to: 'outer', toPort: 'right' },
    { from: 'valid', to: 'per_window', toPort: 'left' },
    { from: 'clicks', to: 'per_window', toPort: 'right' },
    { from: 'outer', to: 'outer_out' },
    { from: 'per_window', to: 'per_window_out' },
    { from: 'valid', to: 'top_per_minute' },
    { from: 'top_per_minute', to: 'top_per_minute_out' },
    { from: 'per_user_total', to: 'totals_pg' },
    { from: 'pg_orders', to: 'pg_orders_out' },
    { from: 'pg_customers', to: 'pg_customers_out' },
    { from: 'per_user_total', to: 'totals_kafka' },
    { from: 'kafka_orders', to: 'kafka_orders_out' },
    { from: 'valid', to: 'discarded' },
  ],
};

/** Smaller jobs for the golden files, each about one corner of the mapping. */
export const plainJobs: Record<string, Omit<JobDocument, 'format'>> = {
  'memory-unbounded-preview': {
    name: 'memory unbounded preview',
    settings: { stateBackend: 'memory', memoryStateLimit: '10mb', restart: { attempts: 0 } },
    nodes: [
      { id: 'gen', type: 'source.generator', config: { keys: 3 } },
      {
        id: 'scaled',
        type: 'map',
        parallelism: 3,
        config: { select: '*, value * 2 AS value, LOWER(key), CAST(seq AS STRING) AS seq_text' },
      },
      { id: 'show', type: 'sink.preview', config: {} },
    ],
    edges: [
      { from: 'gen', to: 'scaled' },
      { from: 'scaled', to: 'show' },
    ],
  },
  'cascade-and-merge': {
    name: 'cascading windows, a sink with two inputs',
    settings: { checkpointing: { interval: '1m', dir: 'file:///shared/checkpoints' } },
    nodes: [
      {
        id: 'clicks',
        type: 'source.file',
        config: { path: 'clicks.csv', format: 'csv', eventTime: { field: 'at', maxOutOfOrderness: '1500ms' } },
      },
      {
        id: 'orders',
        type: 'source.file',
        config: { path: 'orders.jsonl', format: 'jsonl', eventTime: { field: 'ts', maxOutOfOrderness: '90s' } },
      },
      {
        id: 'per_second',
        type: 'window',
        config: { keyBy: 'user', window: { kind: 'tumbling', size: '1s' }, aggregates: 'COUNT(*) AS n' },
      },
      {
        id: 'per_minute',
        type: 'window',
        config: { window: { kind: 'tumbling', size: '1m' }, aggregates: 'SUM(n) AS n, MAX(window_end) AS last_end' },
      },
      { id: 'who', type: 'map', config: { select: "user AS who, 'click' AS kind" } },
      { id: 'who2', type: 'map', config: { select: "`user` AS who, 'order' AS kind" } },
      { id: 'people', type: 'sink.file', config: { path: 'out/people', format: 'jsonl' } },
      { id: 'minutes', type: 'sink.file', config: { path: 'out/minutes', format: 'jsonl' } },
    ],
    edges: [
      { from: 'clicks', to: 'per_second' },
      { from: 'per_second', to: 'per_minute' },
      { from: 'per_minute', to: 'minutes' },
      { from: 'clicks', to: 'who' },
      { from: 'orders', to: 'who2' },
      { from: 'who', to: 'people' },
      { from: 'who2', to: 'people' },
    ],
  },
};
