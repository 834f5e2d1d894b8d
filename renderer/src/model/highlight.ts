/**
 * A small, forgiving SQL tokenizer for syntax highlighting in the inspector. It must never throw
 * and must cover every character (the highlighted copy is laid exactly under the text field), so
 * unknown characters become `plain` tokens.
 */
export type HighlightKind = 'keyword' | 'function' | 'ident' | 'string' | 'number' | 'op' | 'plain';

export interface HighlightToken {
  kind: HighlightKind;
  text: string;
  start: number;
}

export const SQL_KEYWORDS = new Set([
  'AND',
  'OR',
  'NOT',
  'AS',
  'IS',
  'NULL',
  'IN',
  'LIKE',
  'BETWEEN',
  'CASE',
  'WHEN',
  'THEN',
  'ELSE',
  'END',
  'TRUE',
  'FALSE',
  'CAST',
  'DISTINCT',
  'INTERVAL',
  'SIMILAR',
  'TO',
  'ESCAPE',
]);

export const SQL_FUNCTIONS = [
  'COUNT',
  'SUM',
  'AVG',
  'MIN',
  'MAX',
  'UPPER',
  'LOWER',
  'TRIM',
  'CHAR_LENGTH',
  'SUBSTRING',
  'CONCAT',
  'COALESCE',
  'ABS',
  'ROUND',
  'FLOOR',
  'CEIL',
  'MOD',
  'POWER',
  'SQRT',
  'CAST',
  'REGEXP_EXTRACT',
  'SPLIT_INDEX',
  'DATE_FORMAT',
  'TO_TIMESTAMP_LTZ',
];

const RULES: Array<[HighlightKind, RegExp]> = [
  ['string', /'(?:[^']|'')*'?/y],
  ['ident', /`[^`]*`?|"[^"]*"?/y],
  ['number', /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y],
  ['ident', /[A-Za-z_][\w]*/y],
  ['op', /<>|<=|>=|!=|\|\||[-+*/%=<>(),.]/y],
  ['plain', /\s+|./y],
];

export function highlightSql(text: string): HighlightToken[] {
  const out: HighlightToken[] = [];
  let i = 0;
  while (i < text.length) {
    for (const [kind, re] of RULES) {
      re.lastIndex = i;
      const m = re.exec(text);
      if (!m || m[0].length === 0) continue;
      let k = kind;
      if (k === 'ident' && /^[A-Za-z_]/.test(m[0])) {
        const upper = m[0].toUpperCase();
        if (SQL_KEYWORDS.has(upper)) k = 'keyword';
        else if (/^\s*\(/.test(text.slice(i + m[0].length))) k = 'function';
      }
      out.push({ kind: k, text: m[0], start: i });
      i += m[0].length;
      break;
    }
  }
  return out;
}
