/** How a record's value reads in a table cell (the live sample, the committed output, the preview). Plain TS. */
export function cellText(v: unknown, full = false): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  // An AVG of integers is 476.6666666666667: six significant digits read better; the title keeps all.
  if (!full && typeof v === 'number' && !Number.isInteger(v)) return String(Number(v.toPrecision(6)));
  return String(v);
}
