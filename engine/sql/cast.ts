import { fail, make, type CompileContext } from './compile-context.ts';
import type { Compiled, Evaluator, SqlAst, SqlType } from './types.ts';
import { toBool, toNumber, toText, toTimestamp } from './values.ts';
import { Decimal, decimalFromDouble, decimalFromInteger, decimalFromLiteral, rescale } from './decimal.ts';
import { SqlRuntimeError } from './errors.ts';

/**
 * CAST(x AS type) and TRY_CAST(x AS type), as in Flink 1.15+: a non-NULL value that cannot be
 * converted fails the job with CAST (the message names the value; the runtime adds the node's
 * path) and gives NULL with TRY_CAST. A DECIMAL that does not fit its precision is NULL in both
 * (Flink's DecimalData.fromBigDecimal).
 */
export function compileCast(node: SqlAst, arg: Compiled, ctx: CompileContext): Compiled {
  const tryCast = String(node.keyword ?? '').toLowerCase() === 'try_cast';
  const built = castFunction(node, arg, ctx);
  const inner = built.fn;
  const out = make(
    tryCast
      ? (row) => {
          try {
            return inner(row);
          } catch (e) {
            if (e instanceof SqlRuntimeError) return null;
            throw e;
          }
        }
      : inner,
    built.type,
    [arg],
  );
  if (built.precision !== undefined) {
    out.precision = built.precision;
    out.scale = built.scale;
  }
  return out;
}

function cannotCast(v: unknown, type: string): never {
  const shown = typeof v === 'string' ? `'${v}'` : String(v instanceof Decimal ? v.toString() : JSON.stringify(v));
  throw new SqlRuntimeError(
    `CAST(${shown} AS ${type}) failed: the value is not a valid ${type} (TRY_CAST gives NULL instead)`,
  );
}

function castFunction(
  node: SqlAst,
  arg: Compiled,
  ctx: CompileContext,
): { fn: Evaluator; type: SqlType; precision?: number; scale?: number } {
  let decimal: { precision: number; scale: number } | undefined;
  const target = Array.isArray(node.target) ? node.target[0] : node.target;
  const dataType = String(target?.dataType ?? '').toUpperCase();
  const length: number | undefined = typeof target?.length === 'number' ? target.length : undefined;
  const scale: number | undefined = typeof target?.scale === 'number' ? target.scale : undefined;
  const f = arg.fn;
  let fn: Evaluator;
  let type: SqlType;
  switch (dataType) {
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
    case 'INTEGER':
    case 'BIGINT':
      type = 'BIGINT';
      fn = (row) => {
        const v = f(row);
        if (v === null) return null;
        if (typeof v === 'boolean') return v ? 1 : 0;
        const n = typeof v === 'number' ? v : toNumber(v);
        if (n === null || !Number.isFinite(n)) cannotCast(v, dataType);
        return Math.trunc(n) || 0;
      };
      break;
    case 'FLOAT':
    case 'REAL':
    case 'DOUBLE':
      type = 'DOUBLE';
      fn = (row) => {
        const v = f(row);
        if (v === null) return null;
        if (typeof v === 'boolean') return v ? 1 : 0;
        const n = typeof v === 'number' ? v : toNumber(v);
        if (n === null) cannotCast(v, dataType);
        return n;
      };
      break;
    case 'DECIMAL':
    case 'DEC':
    case 'NUMERIC': {
      // DECIMAL alone is DECIMAL(10, 0) in Flink. The value stays an exact Decimal in the expression.
      const p = length ?? 10;
      const sc = scale ?? 0;
      type = 'DECIMAL';
      const name = `DECIMAL(${p}, ${sc})`;
      decimal = { precision: p, scale: sc };
      fn = (row) => {
        const v = f(row);
        if (v === null) return null;
        if (v instanceof Decimal) return rescale(v, sc, p);
        if (typeof v === 'boolean') return rescale(decimalFromInteger(v ? 1 : 0), sc, p);
        if (typeof v === 'number') {
          return Number.isSafeInteger(v) ? rescale(decimalFromInteger(v), sc, p) : decimalFromDouble(v, p, sc);
        }
        if (typeof v === 'string') {
          const t = v.trim();
          const exact = /^[-+]?\d+$/.test(t) ? decimalFromLiteral(`${t}.`) : decimalFromLiteral(t);
          if (exact !== null) return rescale(exact, sc, p);
          const n = toNumber(t);
          if (n !== null) return decimalFromDouble(n, p, sc);
        }
        return cannotCast(v, name);
      };
      break;
    }
    case 'STRING':
    case 'VARCHAR':
    case 'CHAR': {
      type = 'STRING';
      // VARCHAR(n) truncates to n characters, CHAR(n) also pads with spaces (Flink >= 1.15).
      const n = length;
      const pad = dataType === 'CHAR';
      fn = (row) => {
        const s = toText(f(row));
        if (s === null || n === undefined) return s;
        const cut = s.length > n ? s.slice(0, n) : s;
        return pad ? cut.padEnd(n, ' ') : cut;
      };
      break;
    }
    case 'BOOLEAN':
      type = 'BOOLEAN';
      fn = (row) => {
        const v = f(row);
        if (v === null) return null;
        if (typeof v === 'boolean') return v;
        if (typeof v === 'number') return Number.isNaN(v) ? null : v !== 0;
        if (v instanceof Decimal) return v.unscaled !== 0n;
        if (typeof v !== 'string') return cannotCast(v, 'BOOLEAN');
        const b = toBool(v);
        if (b !== null) return b;
        const s = v.trim().toLowerCase();
        return s === 't' || s === 'yes' || s === 'y' || s === '1'
          ? true
          : s === 'f' || s === 'no' || s === 'n' || s === '0'
            ? false
            : cannotCast(v, 'BOOLEAN');
      };
      break;
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      type = 'TIMESTAMP';
      fn = (row) => {
        const v = f(row);
        if (v === null) return null;
        const t = toTimestamp(v instanceof Decimal ? v.toNumber() : v);
        return t === null ? cannotCast(v, dataType) : t;
      };
      break;
    default:
      return fail(ctx, `unsupported CAST target type ${dataType || '(none)'}`, node, 'CAST');
  }
  // CAST(x AS INT) is an INT: precision 10 marks it on Weir's one integer type (flinkTypeName).
  if (type === 'BIGINT' && dataType !== 'BIGINT') return { fn, type, precision: 10 };
  return { fn, type, ...decimal };
}
