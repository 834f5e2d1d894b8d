/**
 * Reading and showing config text: splitting SQL lists, and the one-line summaries a canvas node
 * shows under its name (each definition's `palette.summary`). Pure and total: half-filled or wrong
 * configs give a string, never an exception.
 */
import type { WindowSpec } from './config.ts';

/** Splits on commas outside parentheses, quotes and backticks. */
export function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === quote) quote = null;
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')')
      depth = Math.max(0, depth - 1); // half-typed text: a stray ')' must not hide later commas
    else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter((p) => p !== '');
}

const MAX = 48;

/** One line of at most 48 characters. */
export function clip(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > MAX ? `${one.slice(0, MAX - 1)}…` : one;
}

/** A string or number as text; anything else as ''. */
export function str(x: unknown): string {
  return typeof x === 'string' || typeof x === 'number' ? String(x) : '';
}

/** `tumbling 10s`, `sliding 10s/5s`, `session gap 30s`. */
export function windowText(w: WindowSpec | undefined): string {
  if (!w || typeof w !== 'object') return 'window?';
  switch (w.kind) {
    case 'tumbling':
      return `tumbling ${str(w.size) || '?'}`;
    case 'sliding':
      return `sliding ${str(w.size) || '?'}/${str(w.slide) || '?'}`;
    case 'session':
      return `session gap ${str(w.gap) || '?'}`;
    default:
      return 'window?';
  }
}

/** `COUNT(*) AS n, SUM(amount) AS total` -> `COUNT(*), SUM(amount)`: aliases are noise on a node. */
export function aggregatesShort(aggregates: string): string {
  return splitTopLevel(aggregates)
    .map((part) => part.replace(/\s+as\s+[`"]?[\w]+[`"]?\s*$/i, '').trim())
    .filter(Boolean)
    .join(', ');
}

const ALIAS_RE = /\s+as\s+[`"]?([A-Za-z_][\w]*)[`"]?\s*$/i;
const IDENT_RE = /^[`"]?([A-Za-z_][\w]*)[`"]?$/;

/**
 * The columns a select or aggregate list names, leniently (for completions while it is typed):
 * aliases and bare columns; `*` stands for `input`; other items name nothing.
 */
export function selectListColumns(list: string, input: readonly string[]): string[] {
  const out: string[] = [];
  for (const part of splitTopLevel(list)) {
    if (part === '*') {
      out.push(...input);
      continue;
    }
    const alias = ALIAS_RE.exec(part);
    if (alias) {
      out.push(alias[1]);
      continue;
    }
    const ident = IDENT_RE.exec(part);
    if (ident) out.push(ident[1]);
  }
  return out;
}

/** `a, b` -> [a, b]: the names of a comma-separated key list, empty ones dropped. */
export function keyListColumns(text: string): string[] {
  return text
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
}

export function uniq(xs: readonly string[]): string[] {
  return [...new Set(xs)];
}
