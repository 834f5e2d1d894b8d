/**
 * Flink functions that dt-sql-parser's FlinkSQL grammar does not know (TRY_CAST, CHAR_LENGTH,
 * CHARACTER_LENGTH: Flink has all three) would make a valid script a syntax error. The script is
 * parsed in a masked copy where each such name is replaced by a name of the same length that the
 * grammar reads as a plain call (TRY_CAST by CAST and four spaces: it takes the same `x AS type`
 * arguments, and its token starts where TRY_CAST did).
 * Positions stay the same, and every text the importer keeps is sliced from the original script, so
 * the imported expressions still say TRY_CAST and CHAR_LENGTH (which Weir's compiler runs).
 */
const MASKS: ReadonlyMap<string, string> = new Map([
  ['TRY_CAST', 'CAST    '],
  ['CHARACTER_LENGTH', 'WEIR_CHARACTERLN'],
  ['CHAR_LENGTH', 'WEIR_CHARLN'],
  ['TRANSLATE', 'WEIR_TRNS'],
  ['ELT', 'WLT'],
]);

/**
 * Keyword forms the grammar lacks (`OVERLAY(s PLACING r FROM p FOR n)`, `TRIM(BOTH c FROM s)`,
 * `EXTRACT(DAY FROM ts)`, `FLOOR(ts TO DAY)`, `x IS NOT JSON`, `agg(x) FILTER (WHERE c)`), masked the same way: each keyword
 * becomes a comma or a string literal of its own length, so the call reads as a plain one.
 */
const KEYWORD_CALLS = new Set(['OVERLAY', 'TRIM', 'EXTRACT', 'FLOOR', 'CEIL', 'CEILING']);
const SEPARATORS = new Set(['PLACING', 'FROM', 'FOR', 'TO']);
const TRIM_MODES = new Set(['BOTH', 'LEADING', 'TRAILING']);
const pad = (text: string, width: number): string => text + ' '.repeat(Math.max(0, width - text.length));

function maskKeywordForms(sql: string): string {
  const chars = sql.split('');
  const words = [...sql.matchAll(/'(?:[^']|'')*'|`[^`]*`|[A-Za-z_][A-Za-z0-9_$]*|[()]/g)];
  for (let k = 0; k < words.length; k++) {
    const w = words[k][0].toUpperCase();
    if (w === 'JSON' && words[k - 1]?.[0].toUpperCase() === 'NOT' && words[k - 2]?.[0].toUpperCase() === 'IS') {
      chars.splice(words[k].index, 4, ...'NULL');
      continue;
    }
    // `agg(x) FILTER (WHERE c)`: read as `agg(x) + (c)` (the importer keeps the text as written).
    if (w === 'FILTER' && words[k + 1]?.[0] === '(' && words[k + 2]?.[0].toUpperCase() === 'WHERE') {
      chars.splice(words[k].index, 6, ...pad('+', 6));
      chars.splice(words[k + 2].index, 5, ...pad('', 5));
      continue;
    }
    if (!KEYWORD_CALLS.has(w) || words[k + 1]?.[0] !== '(') continue;
    let depth = 0;
    let prevWasMode = false;
    for (let j = k + 1; j < words.length; j++) {
      const t = words[j][0];
      if (t === '(') depth++;
      else if (t === ')' && --depth === 0) break;
      if (depth !== 1) continue;
      const u = t.toUpperCase();
      const at = words[j].index;
      let insert: string | null = null;
      if (w === 'TRIM' && TRIM_MODES.has(u)) insert = `'${u[0]}',`;
      else if (SEPARATORS.has(u)) insert = prevWasMode && w === 'TRIM' ? "' '," : ',';
      else if ((w === 'EXTRACT' && j === k + 2) || (words[j - 1]?.[0].toUpperCase() === 'TO' && /^[A-Z_]+$/.test(u)))
        insert = `'${u[0]}'`;
      prevWasMode = w === 'TRIM' && TRIM_MODES.has(u);
      if (insert !== null && insert.length <= t.length) chars.splice(at, t.length, ...pad(insert, t.length));
    }
  }
  return chars.join('');
}

/** `sql` with the names above masked outside string literals, quoted identifiers and comments. */
export function maskGrammarGaps(sql: string): string {
  return maskKeywordForms(maskNames(sql));
}

function maskNames(sql: string): string {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    const end = skipLiteral(sql, i);
    if (end > i) {
      out += sql.slice(i, end);
      i = end;
    } else if (/[A-Za-z_]/.test(c) && !/[A-Za-z0-9_$]/.test(sql[i - 1] ?? '')) {
      const word = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(sql.slice(i))![0];
      const mask = MASKS.get(word.toUpperCase());
      const isCall = /^\s*\(/.test(sql.slice(i + word.length, i + word.length + 100));
      out += mask && isCall ? mask : word;
      i += word.length;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The end of a string literal, quoted identifier or comment starting at `i`, or `i` when none does. */
function skipLiteral(sql: string, i: number): number {
  const c = sql[i];
  if (c === "'" || c === '`' || c === '"') {
    let j = i + 1;
    while (j < sql.length) {
      if (sql[j] === c) {
        if (sql[j + 1] === c)
          j += 2; // a doubled quote inside the literal
        else return j + 1;
      } else j++;
    }
    return sql.length;
  }
  if (c === '-' && sql[i + 1] === '-') {
    const nl = sql.indexOf('\n', i);
    return nl === -1 ? sql.length : nl;
  }
  if (c === '/' && sql[i + 1] === '*') {
    const close = sql.indexOf('*/', i + 2);
    return close === -1 ? sql.length : close + 2;
  }
  return i;
}
