/**
 * PostgreSQL column types as Flink SQL types, the way Flink's JDBC connector maps them
 * (flink-connector-jdbc `PostgresTypeMapper`): `text` is STRING, `integer` INT, `numeric(p, s)`
 * DECIMAL(p, s) (DECIMAL(38, 18) without a precision), `timestamp(p)` TIMESTAMP(p) (6 without
 * one), `timestamptz` TIMESTAMP_LTZ(p), an array ARRAY<element>. A type the mapper does not know
 * (json, uuid, an enum) maps to null: Flink's catalog refuses it; Weir writes such a column from
 * the value's text and leaves the check to PostgreSQL.
 */

/** `baseType`/`type`: format_type without and with the type modifier (`numeric`, `numeric(10,2)`). */
export function flinkTypeOfPgType(baseType: string, type: string): string | null {
  if (baseType.endsWith('[]')) {
    const element = flinkTypeOfPgType(baseType.slice(0, -2), type.replace(/\[\]$/, ''));
    return element ? `ARRAY<${element}>` : null;
  }
  const args = /\(([\d,\s]+)\)/
    .exec(type)?.[1]
    .split(',')
    .map((n) => Number(n.trim()));
  const precision = args?.[0];
  switch (baseType) {
    case 'boolean':
      return 'BOOLEAN';
    case 'bytea':
      return 'BYTES';
    case 'smallint':
      return 'SMALLINT';
    case 'integer':
      return 'INT';
    case 'bigint':
      return 'BIGINT';
    case 'real':
      return 'FLOAT';
    case 'double precision':
      return 'DOUBLE';
    case 'numeric':
      return precision ? `DECIMAL(${precision}, ${args?.[1] ?? 0})` : 'DECIMAL(38, 18)';
    case 'character':
    case 'bpchar':
      return `CHAR(${precision ?? 1})`;
    case 'character varying':
      return precision ? `VARCHAR(${precision})` : 'STRING';
    case 'text':
      return 'STRING';
    case 'timestamp without time zone':
      return `TIMESTAMP(${precision ?? 6})`;
    case 'timestamp with time zone':
      return `TIMESTAMP_LTZ(${precision ?? 6})`;
    case 'time without time zone':
      return `TIME(${precision ?? 6})`;
    case 'date':
      return 'DATE';
    default:
      return null;
  }
}
