/** Parity measured on real Flink 1.20 (parity-suite.ts); the measured rows: docs/sql-semantics.md. */
import { parityOnFlink } from './parity-suite.ts';

parityOnFlink('1.20', {
  'example:union-late':
    "which records are late after a union depends on how far each input has read when they arrive (the union's " +
    'watermark is the minimum of its inputs), so the totals are timing-dependent on Flink; and Flink SQL has no ' +
    "late port, so the 'late' sink stays empty where Weir writes 5 rows",
});
