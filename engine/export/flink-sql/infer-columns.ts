/** Sampling a file source's columns lives with the connectors (the runtime types columns with it too). */
export {
  inferFileColumns,
  splitCsvLine,
  type IgnoredSample,
  type InferResult,
} from '../../connectors/sample-columns.ts';
