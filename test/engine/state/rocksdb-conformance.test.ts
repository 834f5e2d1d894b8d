import { stateBackendConformance } from './conformance.ts';
import { rocksHarness } from './rocksdb-harness.ts';

stateBackendConformance('rocksdb (full snapshots)', () => rocksHarness(false));
stateBackendConformance('rocksdb (incremental snapshots)', () => rocksHarness(true));
