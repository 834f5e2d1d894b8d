/**
 * Minimal RFC-4180 CSV line handling for the file source and sink: quoted fields with doubled
 * quotes, no multi-line fields (one record per line keeps byte offsets meaningful).
 */
export function parseCsvLine(line: string): string[] | null {
  const out: string[] = [];
  let i = 0;
  const n = line.length;
  for (;;) {
    if (i < n && line.charCodeAt(i) === 34) {
      let v = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) return null; // unterminated quote
        v += line.slice(i, q);
        if (line.charCodeAt(q + 1) === 34) {
          v += '"';
          i = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      out.push(v);
      if (i === n) return out;
      if (line.charCodeAt(i) !== 44) return null;
      i++;
    } else {
      const c = line.indexOf(',', i);
      if (c < 0) {
        out.push(line.slice(i));
        return out;
      }
      out.push(line.slice(i, c));
      i = c + 1;
    }
  }
}

export function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\n\r]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

const NUMERIC = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** Typed value of a CSV cell: declared Flink SQL type, else inferred (number, boolean, null, text). */
export function csvValue(text: string, declared: string | undefined): unknown {
  if (declared) {
    const t = declared.toUpperCase();
    if (text === '') return null;
    if (/^(TINYINT|SMALLINT|INT|INTEGER|BIGINT|FLOAT|DOUBLE|DECIMAL|NUMERIC|REAL)/.test(t)) return Number(text);
    if (t.startsWith('BOOLEAN')) return text.toLowerCase() === 'true';
    return text;
  }
  if (text === '') return null;
  if (NUMERIC.test(text)) return Number(text);
  if (text === 'true') return true;
  if (text === 'false') return false;
  return text;
}
