import type { FunctionSpec } from './types.ts';
import { BASIC_FUNCTIONS } from './basic-functions.ts';
import { HASH_FUNCTIONS } from './hash-functions.ts';
import { JSON_FUNCTIONS } from './json-functions.ts';
import { MATH_FUNCTIONS } from './math-functions.ts';
import { REGEX_FUNCTIONS } from './regex-functions.ts';
import { STRING_FUNCTIONS, STRING_PREDICATES } from './string-functions.ts';
import { TEMPORAL_FUNCTIONS } from './temporal-functions.ts';
import { URL_FUNCTIONS } from './url-functions.ts';
import { REGEXP_EXTRACT, SPLIT_INDEX } from './text-functions.ts';
import { DATE_FORMAT, TO_TIMESTAMP_LTZ } from './time-functions.ts';

/**
 * The scalar function catalog: every Flink built-in Weir runs, by name, from the modules that
 * implement them (each FunctionSpec carries its parameter families and signature, which the checker
 * and the designer's autocomplete read). docs/functions.md lists Flink's whole catalog with each
 * function's status; test/engine/sql/function-catalog.test.ts keeps the two in step.
 */
export const FUNCTIONS: Record<string, FunctionSpec> = {
  ...BASIC_FUNCTIONS,
  ...STRING_FUNCTIONS,
  ...STRING_PREDICATES,
  ...REGEX_FUNCTIONS,
  ...URL_FUNCTIONS,
  REGEXP_EXTRACT,
  SPLIT_INDEX,
  ...MATH_FUNCTIONS,
  ...HASH_FUNCTIONS,
  ...JSON_FUNCTIONS,
  DATE_FORMAT,
  TO_TIMESTAMP_LTZ,
  ...TEMPORAL_FUNCTIONS,
};

const NOT_DETERMINISTIC = 'the current time is not deterministic, so a replay after a failure would differ';
const RANDOM = 'random values are not deterministic, so a replay after a failure would differ';
const NO_COLLECTIONS = "Weir's expressions have no ARRAY or MAP type";
const NO_BINARY = "Weir's expressions have no BINARY type";
const NO_DATE = "Weir's expressions have no DATE or TIME type: use TIMESTAMP (TO_TIMESTAMP, DATE_FORMAT)";
const OVER_WINDOW = 'OVER windows are not supported: a topn node gives ROW_NUMBER (a rank per partition)';
const AGGREGATE = 'only as an aggregate (in the aggregates of a window or an aggregate node)';
const NO_GROUPING_SETS = 'Weir has no GROUPING SETS, ROLLUP or CUBE';

/**
 * Aggregates Weir runs (more-aggregates.ts) that the parser reads as plain calls: outside an
 * aggregates list they are refused with this pointer (COUNT, SUM... the parser knows itself).
 */
export const AGGREGATE_ONLY: Record<string, string> = {
  STDDEV_POP: AGGREGATE,
  STDDEV_SAMP: AGGREGATE,
  VAR_POP: AGGREGATE,
  VAR_SAMP: AGGREGATE,
  VARIANCE: AGGREGATE,
  FIRST_VALUE: AGGREGATE,
  LAST_VALUE: AGGREGATE,
  LISTAGG: AGGREGATE,
};

/** Flink's aggregates Weir refuses, with the reason (in an aggregates list or anywhere else). */
export const UNSUPPORTED_AGGREGATES: Record<string, string> = {
  COLLECT: NO_COLLECTIONS,
  ARRAY_AGG: NO_COLLECTIONS,
  PERCENTILE: 'an exact percentile keeps every value of a group; Weir has no such aggregate',
  JSON_OBJECTAGG: "Weir's aggregates do not build JSON: aggregate first, then JSON_OBJECT in a map",
  JSON_ARRAYAGG: "Weir's aggregates do not build JSON: aggregate first, then JSON_ARRAY in a map",
};

/**
 * Flink built-ins Weir refuses on purpose, with the reason shown to the user ("Flink's X is not
 * supported in Weir: <reason>"), so that none of them reads as an unknown identifier.
 */
export const UNSUPPORTED_FUNCTIONS: Record<string, string> = {
  NOW: NOT_DETERMINISTIC,
  CURRENT_TIMESTAMP: NOT_DETERMINISTIC,
  LOCALTIMESTAMP: NOT_DETERMINISTIC,
  LOCALTIME: NOT_DETERMINISTIC,
  CURRENT_TIME: NOT_DETERMINISTIC,
  CURRENT_DATE: NOT_DETERMINISTIC,
  CURRENT_ROW_TIMESTAMP: NOT_DETERMINISTIC,
  PROCTIME: 'Weir windows run on event time',
  CURRENT_WATERMARK: "Weir's expressions do not see the watermark (late rows are handled by the window's lateness)",
  RAND: RANDOM,
  RAND_INTEGER: RANDOM,
  UUID: RANDOM,
  TO_DATE: NO_DATE,
  CONVERT_TZ: "Weir's times are UTC instants and its expressions have no time zones",
  DECODE: NO_BINARY,
  ENCODE: NO_BINARY,
  UNHEX: NO_BINARY,
  PRINTF: "Java's Formatter syntax is not implemented in Weir: use CONCAT, LPAD and CAST",
  TYPEOF: "Weir's static types are coarser than Flink's (INT and BIGINT are one type), so the answer would differ",
  CARDINALITY: NO_COLLECTIONS,
  ELEMENT: NO_COLLECTIONS,
  ARRAY_APPEND: NO_COLLECTIONS,
  ARRAY_CONTAINS: NO_COLLECTIONS,
  ARRAY_DISTINCT: NO_COLLECTIONS,
  ARRAY_POSITION: NO_COLLECTIONS,
  ARRAY_PREPEND: NO_COLLECTIONS,
  ARRAY_REMOVE: NO_COLLECTIONS,
  ARRAY_REVERSE: NO_COLLECTIONS,
  ARRAY_SLICE: NO_COLLECTIONS,
  ARRAY_SORT: NO_COLLECTIONS,
  ARRAY_UNION: NO_COLLECTIONS,
  ARRAY_CONCAT: NO_COLLECTIONS,
  ARRAY_EXCEPT: NO_COLLECTIONS,
  ARRAY_INTERSECT: NO_COLLECTIONS,
  ARRAY_MAX: NO_COLLECTIONS,
  ARRAY_MIN: NO_COLLECTIONS,
  ARRAY_JOIN: NO_COLLECTIONS,
  MAP_KEYS: NO_COLLECTIONS,
  MAP_VALUES: NO_COLLECTIONS,
  MAP_ENTRIES: NO_COLLECTIONS,
  MAP_UNION: NO_COLLECTIONS,
  MAP_FROM_ARRAYS: NO_COLLECTIONS,
  SPLIT: NO_COLLECTIONS,
  STR_TO_MAP: NO_COLLECTIONS,
  REGEXP_EXTRACT_ALL: NO_COLLECTIONS,
  GROUP_ID: NO_GROUPING_SETS,
  GROUPING: NO_GROUPING_SETS,
  GROUPING_ID: NO_GROUPING_SETS,
  CURRENT_DATABASE: 'Weir has no catalog of databases',
  ROW_NUMBER: OVER_WINDOW,
  RANK: OVER_WINDOW,
  DENSE_RANK: OVER_WINDOW,
  PERCENT_RANK: OVER_WINDOW,
  CUME_DIST: OVER_WINDOW,
  NTILE: OVER_WINDOW,
  LEAD: OVER_WINDOW,
  LAG: OVER_WINDOW,
  ...AGGREGATE_ONLY,
  ...UNSUPPORTED_AGGREGATES,
};
