/**
 * Flink's implicit casts between SQL types, as its planner applies them to `INSERT INTO`: a query
 * column may go into a sink column only when its type casts implicitly to the sink's
 * (`DynamicSinkUtils.validateSchemaAndApplyImplicitCast` -> `LogicalTypeCasts.supportsImplicitCast`,
 * Flink 1.20). The sink's NOT NULL is not part of it: Flink makes the sink's types nullable before
 * comparing ("the NULL constraint will be checked during runtime", `fixSinkDataType`), so
 * nullability is ignored here and the caller warns about it instead.
 *
 * Browser-safe: pure functions over Flink SQL type names as the edge schemas spell them
 * (`BIGINT`, `DECIMAL(10, 2)`, `TIMESTAMP(3)`, `VARCHAR(20)`, `ARRAY<STRING>`).
 */

export type FlinkRoot =
  | 'CHAR'
  | 'VARCHAR'
  | 'BOOLEAN'
  | 'BINARY'
  | 'VARBINARY'
  | 'DECIMAL'
  | 'TINYINT'
  | 'SMALLINT'
  | 'INTEGER'
  | 'BIGINT'
  | 'FLOAT'
  | 'DOUBLE'
  | 'DATE'
  | 'TIME'
  | 'TIMESTAMP'
  | 'TIMESTAMP_TZ'
  | 'TIMESTAMP_LTZ'
  | 'INTERVAL'
  | 'ARRAY'
  | 'MAP'
  | 'ROW'
  | 'MULTISET';

export interface FlinkType {
  root: FlinkRoot;
  /** ARRAY's element type (other constructed types are compared by their text). */
  element?: FlinkType;
  /** The type as written, without NOT NULL (for constructed types other than ARRAY: their identity). */
  text: string;
  nullable: boolean;
}

const NUMERIC: readonly FlinkRoot[] = ['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'FLOAT', 'DOUBLE', 'DECIMAL'];

/** Target root -> the source roots that cast to it implicitly (besides itself): LogicalTypeCasts' table. */
const IMPLICIT_FROM: Partial<Record<FlinkRoot, readonly FlinkRoot[]>> = {
  VARCHAR: ['CHAR'],
  VARBINARY: ['BINARY'],
  DECIMAL: NUMERIC,
  SMALLINT: ['TINYINT'],
  INTEGER: ['TINYINT', 'SMALLINT'],
  BIGINT: ['TINYINT', 'SMALLINT', 'INTEGER'],
  FLOAT: ['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'DECIMAL'],
  DOUBLE: NUMERIC,
  DATE: ['TIMESTAMP'],
  TIME: ['TIMESTAMP'],
  TIMESTAMP: ['TIMESTAMP_LTZ'],
  TIMESTAMP_LTZ: ['TIMESTAMP'],
};

const ATOMIC: ReadonlyArray<readonly [RegExp, FlinkRoot]> = [
  [/^(STRING|VARCHAR(\s*\(\s*\d+\s*\))?|CHARACTER VARYING(\s*\(\s*\d+\s*\))?)$/, 'VARCHAR'],
  [/^(CHAR|CHARACTER)(\s*\(\s*\d+\s*\))?$/, 'CHAR'],
  [/^BOOLEAN$/, 'BOOLEAN'],
  [/^(BYTES|VARBINARY(\s*\(\s*\d+\s*\))?)$/, 'VARBINARY'],
  [/^BINARY(\s*\(\s*\d+\s*\))?$/, 'BINARY'],
  [/^(DECIMAL|DEC|NUMERIC)(\s*\(\s*\d+\s*(,\s*\d+\s*)?\))?$/, 'DECIMAL'],
  [/^TINYINT$/, 'TINYINT'],
  [/^SMALLINT$/, 'SMALLINT'],
  [/^(INT|INTEGER)$/, 'INTEGER'],
  [/^BIGINT$/, 'BIGINT'],
  [/^(FLOAT|REAL)$/, 'FLOAT'],
  [/^DOUBLE( PRECISION)?$/, 'DOUBLE'],
  [/^DATE$/, 'DATE'],
  [/^TIME(\s*\(\s*\d\s*\))?( WITHOUT TIME ZONE)?$/, 'TIME'],
  [/^TIMESTAMP(\s*\(\s*\d\s*\))?( WITHOUT TIME ZONE)?$/, 'TIMESTAMP'],
  [/^(TIMESTAMP_LTZ(\s*\(\s*\d\s*\))?|TIMESTAMP(\s*\(\s*\d\s*\))? WITH LOCAL TIME ZONE)$/, 'TIMESTAMP_LTZ'],
  [/^TIMESTAMP(\s*\(\s*\d\s*\))? WITH TIME ZONE$/, 'TIMESTAMP_TZ'],
  [/^INTERVAL\b/, 'INTERVAL'],
];

/** A Flink SQL type name as a type; null for what is no Flink type ('UNKNOWN', 'ANY', a typo). */
export function parseFlinkType(text: string): FlinkType | null {
  let t = text.trim().replace(/\s+/g, ' ');
  let nullable = true;
  const notNull = / NOT NULL$/i.exec(t);
  if (notNull) {
    nullable = false;
    t = t.slice(0, notNull.index).trim();
  } else t = t.replace(/ NULL$/i, '').trim();
  const upper = t.toUpperCase();
  const array = /^ARRAY\s*<(.*)>$/i.exec(t) ?? /^(.*) ARRAY$/i.exec(t);
  if (array) {
    const element = parseFlinkType(array[1]);
    return element ? { root: 'ARRAY', element, text: t, nullable } : null;
  }
  const constructed = /^(MAP|ROW|MULTISET)\b/.exec(upper);
  if (constructed) return { root: constructed[1] as FlinkRoot, text: upper.replace(/\s+/g, ''), nullable };
  for (const [re, root] of ATOMIC) if (re.test(upper)) return { root, text: t, nullable };
  return null;
}

/**
 * Whether a `source` value goes into a `target` column without an explicit CAST, as Flink's
 * planner decides for INSERT INTO (nullability ignored: see the header).
 */
export function castsImplicitly(source: FlinkType, target: FlinkType): boolean {
  if (source.root === 'ARRAY' || target.root === 'ARRAY') {
    return source.root === target.root && castsImplicitly(source.element!, target.element!);
  }
  if (['MAP', 'ROW', 'MULTISET'].includes(source.root) || ['MAP', 'ROW', 'MULTISET'].includes(target.root)) {
    return source.root === target.root && source.text === target.text;
  }
  if (source.root === target.root) return true;
  return (IMPLICIT_FROM[target.root] ?? []).includes(source.root);
}
