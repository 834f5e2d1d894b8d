import { fail, make, type CompileContext } from './compile.ts';
import type { SqlAst } from './parse.ts';
import type { Compiled, Evaluator, SqlType } from './types.ts';
import { roundHalfUp, toBool, toNumber, toText, toTimestamp } from './values.ts';

/**
 * CAST(x AS type). A value that cannot be converted gives NULL rather than failing the job
 * (Flink's TRY_CAST behaviour; documented in README.md of this folder).
 */
export function compileCast(node: SqlAst, arg: Compiled, ctx: CompileContext): Compiled {
  const target = Array.isArray(node.target) ? node.target[0] : node.target;
  const dataType = String(target?.dataType ?? '').toUpperCase();
  const length: number | undefined = typeof target?.length === 'number' ? target.length : undefined;
  const scale: number | undefined = typeof target?.scale === 'number' ? target.scale : undefined;
  const f = arg.fn;
  let fn: Evaluator;
  let type: SqlType;
  switch (dataType) {
    case 'TINYINT': case 'SMALLINT': case 'INT': case 'INTEGER': case 'BIGINT':
      type = 'BIGINT';
      fn = (row) => {
        const v = f(row);
        if (typeof v === 'boolean') return v ? 1 : 0;
        const n = typeof v === 'number' ? v : toNumber(v);
        return n === null || !Number.isFinite(n) ? null : Math.trunc(n) || 0;
      };
      break;
    case 'FLOAT': case 'REAL': case 'DOUBLE':
      type = 'DOUBLE';
      fn = (row) => {
        const v = f(row);
        if (typeof v === 'boolean') return v ? 1 : 0;
        return typeof v === 'number' ? v : toNumber(v);
      };
      break;
    case 'DECIMAL': case 'DEC': case 'NUMERIC': {
      // DECIMAL without a scale is DECIMAL(10, 0) in Flink: the value is rounded to an integer.
      const s = scale ?? 0;
      type = s === 0 ? 'BIGINT' : 'DOUBLE';
      fn = (row) => {
        const v = f(row);
        const n = typeof v === 'number' ? v : typeof v === 'boolean' ? (v ? 1 : 0) : toNumber(v);
        return n === null || !Number.isFinite(n) ? null : roundHalfUp(n, s);
      };
      break;
    }
    case 'STRING': case 'VARCHAR': case 'CHAR': {
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
        if (typeof v === 'boolean') return v;
        if (typeof v === 'number') return Number.isNaN(v) ? null : v !== 0;
        if (typeof v !== 'string') return null;
        const b = toBool(v);
        if (b !== null) return b;
        const s = v.trim().toLowerCase();
        return s === 't' || s === 'yes' || s === 'y' || s === '1' ? true
          : s === 'f' || s === 'no' || s === 'n' || s === '0' ? false : null;
      };
      break;
    case 'TIMESTAMP': case 'TIMESTAMP_LTZ':
      type = 'TIMESTAMP';
      fn = (row) => toTimestamp(f(row));
      break;
    default:
      return fail(ctx, `unsupported CAST target type ${dataType || '(none)'}`, node, 'CAST');
  }
  return make(fn, type, [arg]);
}
