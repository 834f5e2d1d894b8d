import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compileProjection, type Row } from '../../../engine/sql/index.ts';

/**
 * Property test of operator precedence: random expression trees are printed with only the
 * parentheses SQL needs, compiled, and compared with a direct evaluation of the tree. The parser
 * alone gets AND/OR and `NOT (x) > y` wrong; this proves the repaired trees.
 */
type Val = number | boolean | null;
type Node =
  | { k: 'num'; v: number }
  | { k: 'col'; name: string }
  | { k: 'bin'; op: string; l: Node; r: Node }
  | { k: 'neg'; e: Node }
  | { k: 'not'; e: Node }
  | { k: 'between'; e: Node; lo: Node; hi: Node }
  | { k: 'isnull'; e: Node; not: boolean };

// Precedence levels: OR 1, AND 2, NOT 3, comparison 4, + - 5, * 6, unary minus 7, atoms 8.
const LEVEL: Record<string, number> = { OR: 1, AND: 2, '=': 4, '<>': 4, '<': 4, '>=': 4, '+': 5, '-': 5, '*': 6 };

function prec(n: Node): number {
  switch (n.k) {
    case 'num':
    case 'col':
      return 8;
    case 'neg':
      return 7;
    case 'not':
      return 3;
    case 'between':
    case 'isnull':
      return 4;
    case 'bin':
      return LEVEL[n.op];
  }
}

function print(n: Node, min: number, style: number): string {
  const s = printBare(n, style);
  // Random extra parentheses around atoms exercise the parser's NOT(...) and grouping paths.
  const need = prec(n) < min || (style % 5 === 0 && prec(n) === 8 && n.k === 'col');
  return need ? `(${s})` : s;
}

function printBare(n: Node, style: number): string {
  switch (n.k) {
    case 'num':
      return String(n.v);
    case 'col':
      return n.name;
    case 'neg':
      return `- ${print(n.e, 7, style)}`;
    case 'not':
      return `NOT ${print(n.e, 3, style + 1)}`;
    case 'between':
      return `${print(n.e, 5, style)} BETWEEN ${print(n.lo, 5, style)} AND ${print(n.hi, 5, style)}`;
    case 'isnull':
      return `${print(n.e, 5, style)} IS ${n.not ? 'NOT ' : ''}NULL`;
    case 'bin': {
      const p = LEVEL[n.op];
      const cmp = p === 4;
      return `${print(n.l, cmp ? 5 : p, style)} ${n.op} ${print(n.r, cmp ? 5 : p + 1, style + 2)}`;
    }
  }
}

function cmp3(a: Val, b: Val, f: (c: number) => boolean): Val {
  return a === null || b === null ? null : f((a as number) - (b as number));
}

function evaluate(n: Node, row: Row): Val {
  switch (n.k) {
    case 'num':
      return n.v;
    case 'col':
      return (row[n.name] ?? null) as Val;
    case 'neg': {
      const v = evaluate(n.e, row);
      return v === null ? null : -(v as number) || 0;
    }
    case 'not': {
      const v = evaluate(n.e, row);
      return v === null ? null : !v;
    }
    case 'isnull':
      return (evaluate(n.e, row) === null) !== n.not;
    case 'between': {
      const v = evaluate(n.e, row);
      const ge = cmp3(v, evaluate(n.lo, row), (c) => c >= 0);
      const le = cmp3(v, evaluate(n.hi, row), (c) => c <= 0);
      return ge === false || le === false ? false : ge === null || le === null ? null : true;
    }
    case 'bin': {
      const a = evaluate(n.l, row),
        b = evaluate(n.r, row);
      switch (n.op) {
        case 'AND':
          return a === false || b === false ? false : a === null || b === null ? null : true;
        case 'OR':
          return a === true || b === true ? true : a === null || b === null ? null : false;
        case '=':
          return cmp3(a, b, (c) => c === 0);
        case '<>':
          return cmp3(a, b, (c) => c !== 0);
        case '<':
          return cmp3(a, b, (c) => c < 0);
        case '>=':
          return cmp3(a, b, (c) => c >= 0);
        default: {
          if (a === null || b === null) return null;
          const x = a as number,
            y = b as number;
          // Integers have no negative zero (Java's long): Weir's arithmetic gives 0, never -0.
          return (n.op === '+' ? x + y : n.op === '-' ? x - y : x * y) || 0;
        }
      }
    }
  }
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function genNum(r: () => number, depth: number): Node {
  const x = r();
  if (depth <= 0 || x < 0.3)
    return r() < 0.5 ? { k: 'num', v: Math.floor(r() * 5) } : { k: 'col', name: ['a', 'b', 'c'][Math.floor(r() * 3)] };
  if (x < 0.4) return { k: 'neg', e: genNum(r, depth - 1) };
  const op = ['+', '-', '*'][Math.floor(r() * 3)];
  return { k: 'bin', op, l: genNum(r, depth - 1), r: genNum(r, depth - 1) };
}

function genBool(r: () => number, depth: number): Node {
  const x = r();
  if (depth <= 0 || x < 0.25) {
    const y = r();
    if (y < 0.35) return { k: 'col', name: ['p', 'q', 's'][Math.floor(r() * 3)] };
    if (y < 0.5) return { k: 'between', e: genNum(r, 1), lo: genNum(r, 1), hi: genNum(r, 1) };
    if (y < 0.6) return { k: 'isnull', e: genNum(r, 1), not: r() < 0.5 };
    const op = ['=', '<>', '<', '>='][Math.floor(r() * 4)];
    return { k: 'bin', op, l: genNum(r, 2), r: genNum(r, 2) };
  }
  if (x < 0.4) return { k: 'not', e: genBool(r, depth - 1) };
  return { k: 'bin', op: r() < 0.5 ? 'AND' : 'OR', l: genBool(r, depth - 1), r: genBool(r, depth - 1) };
}

function genRow(r: () => number): Row {
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)];
  return {
    a: pick([0, 1, 2, 3, null]),
    b: pick([0, 1, 2, null]),
    c: pick([1, 4, null]),
    p: pick([true, false, null]),
    q: pick([true, false, null]),
    s: pick([true, false, null]),
  };
}

describe('operator precedence (property test against a tree evaluator)', () => {
  it('agrees on 600 random boolean expressions x 8 rows', () => {
    const r = rng(20261130);
    for (let i = 0; i < 600; i++) {
      const tree = genBool(r, 4);
      const text = print(tree, 0, i);
      const project = compileProjection(`${text} AS v`).project;
      for (let j = 0; j < 8; j++) {
        const row = genRow(r);
        assert.equal(project(row).v, evaluate(tree, row), `${text} with ${JSON.stringify(row)}`);
      }
    }
  });
  it('agrees on 300 random arithmetic expressions', () => {
    const r = rng(7);
    for (let i = 0; i < 300; i++) {
      const tree = genNum(r, 4);
      const text = print(tree, 0, i);
      const project = compileProjection(`${text} AS v`).project;
      for (let j = 0; j < 4; j++) {
        const row = genRow(r);
        assert.equal(project(row).v, evaluate(tree, row), `${text} with ${JSON.stringify(row)}`);
      }
    }
  });
  it('NOT (x) followed by an operator negates the whole comparison', () => {
    const v = (e: string, row: Row): unknown => compileProjection(`${e} AS v`).project(row).v;
    assert.equal(v('NOT (a + 1) > 2', { a: 5 }), false);
    assert.equal(v('NOT (a) + 1 > 2', { a: 0 }), true);
    assert.equal(v('NOT (a) IS NULL', { a: null }), false);
    assert.equal(v("NOT (a) LIKE 'x'", { a: 'y' }), true);
    assert.equal(v('NOT (a) BETWEEN 1 AND 2', { a: 5 }), true);
    assert.equal(v('NOT (p) AND q', { p: false, q: true }), true);
  });
});
