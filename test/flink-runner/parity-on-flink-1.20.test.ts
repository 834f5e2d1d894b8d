/** Parity measured on real Flink 1.20 (parity-suite.ts); the measured rows: docs/sql-semantics.md. */
import { parityOnFlink } from './parity-suite.ts';

parityOnFlink('1.20', {
  'example:union-late':
    "which records are late after a union depends on how far each input has read when they arrive (the union's " +
    'watermark is the minimum of its inputs), so the totals are timing-dependent on Flink; and Flink SQL has no ' +
    "late port, so the 'late' sink stays empty where Weir writes 5 rows",
  ...Object.fromEntries(
    [
      'string-functions.json#8',
      'string-functions.json#9',
      'string-functions.json#10',
      'string-functions.json#11',
      'string-functions.json#12',
      'json-functions.json#3',
    ].map((id) => [
      `corpus:${id}`,
      'functions new in Flink 2.0 (STARTSWITH, ENDSWITH, BTRIM, LTRIM/RTRIM with characters, TRANSLATE, ELT, ' +
        'REGEXP_COUNT/INSTR/SUBSTR, URL_ENCODE/DECODE, JSON_QUOTE/UNQUOTE): Flink 1.20 refuses the script ' +
        "('No match found for function signature')",
    ]),
  ),
});
