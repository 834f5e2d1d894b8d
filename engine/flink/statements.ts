/**
 * A Flink SQL script as the statements a SQL Gateway takes one at a time: split at semicolons
 * outside quotes ('...', `...`, "...") and comments (-- and /* *\/), with a statement set
 * (`EXECUTE STATEMENT SET BEGIN ...; END` or `BEGIN STATEMENT SET; ...; END`) kept as one
 * `EXECUTE STATEMENT SET BEGIN ... END` statement. The runner's ScriptSplitter.java does the same
 * for the local path.
 */

export interface ScriptStatement {
  sql: string;
  /** 1-based line of the statement's first character. */
  line: number;
}

/** The text with comments blanked out (quotes respected), for recognising a statement's kind. */
export function withoutComments(sql: string): string {
  let out = '';
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = (end < 0 ? sql.length : end) - 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = (end < 0 ? sql.length : end + 2) - 1;
      out += ' ';
    } else if (c === "'" || c === '`' || c === '"') {
      const end = quoteEnd(sql, i);
      out += sql.slice(i, end + 1);
      i = end;
    } else out += c;
  }
  return out;
}

/** Index of the closing quote of the quote opened at `start` (a doubled quote is a literal one). */
function quoteEnd(sql: string, start: number): number {
  const q = sql[start];
  let j = start + 1;
  while (j < sql.length) {
    if (sql[j] === q) {
      if (sql[j + 1] === q) j += 2;
      else return j;
    } else j++;
  }
  return sql.length - 1;
}

function pieces(script: string): ScriptStatement[] {
  const out: ScriptStatement[] = [];
  let start = 0;
  const push = (end: number) => {
    const text = script.slice(start, end);
    const bare = withoutComments(text).trim();
    if (bare !== '') {
      const offset = start + text.indexOf(bare.slice(0, 1));
      out.push({ sql: bare, line: script.slice(0, offset).split('\n').length });
    }
    start = end + 1;
  };
  for (let i = 0; i < script.length; i++) {
    const c = script[i];
    if (c === '-' && script[i + 1] === '-') {
      const end = script.indexOf('\n', i);
      i = (end < 0 ? script.length : end) - 1;
    } else if (c === '/' && script[i + 1] === '*') {
      const end = script.indexOf('*/', i + 2);
      i = (end < 0 ? script.length : end + 2) - 1;
    } else if (c === "'" || c === '`' || c === '"') i = quoteEnd(script, i);
    else if (c === ';') push(i);
  }
  push(script.length);
  return out;
}

const EXECUTE_SET = /^EXECUTE\s+STATEMENT\s+SET\s+BEGIN\b/i;
const BEGIN_SET = /^BEGIN\s+STATEMENT\s+SET$/i;

export function splitStatements(script: string): ScriptStatement[] {
  const raw = pieces(script);
  const out: ScriptStatement[] = [];
  for (let i = 0; i < raw.length; i++) {
    const s = raw[i];
    const execute = EXECUTE_SET.exec(s.sql);
    if (!execute && !BEGIN_SET.test(s.sql)) {
      out.push(s);
      continue;
    }
    const inserts = execute ? [s.sql.slice(execute[0].length).trim()].filter(Boolean) : [];
    let ended = false;
    while (++i < raw.length) {
      if (/^END$/i.test(raw[i].sql)) {
        ended = true;
        break;
      }
      inserts.push(raw[i].sql);
    }
    if (!ended) throw new Error(`line ${s.line}: the statement set has no END`);
    out.push({ sql: `EXECUTE STATEMENT SET\nBEGIN\n${inserts.map((x) => `${x};`).join('\n')}\nEND`, line: s.line });
  }
  return out;
}
