export {
  OperatorTestHarness,
  inMemoryBackend,
  type HarnessOptions,
  type HarnessSnapshot,
  type HarnessEvent,
  type TimestampedRow,
  type BackendFactory,
} from './operator-test-harness.ts';
export { KeyedParallelHarness, type KeyedParallelOptions } from './keyed-parallel-harness.ts';
export { InMemoryKeyedStateBackend } from './in-memory-state-backend.ts';
export { createHarnessBackends, BACKEND_KINDS, type HarnessBackends } from './state-backends.ts';
export { MultiInputParallelHarness, type MultiInputParallelOptions } from './multi-input-parallel-harness.ts';
