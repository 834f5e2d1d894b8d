import type { SqlAst } from './types.ts';

/** Both precedence repairs, in the order they must run. */
export function fixPrecedence(node: SqlAst): SqlAst {
  return fixLogicalPrecedence(hoistNotCalls(node));
}

/**
 * The parser reads `NOT (x) > 2` as a call of a function NOT, `(NOT x) > 2`. In SQL, NOT binds
 * looser than comparisons and arithmetic: `NOT (x > 2)`. Such a call sits at the bottom of the
 * left spine of the operators it should span; this pass moves it above the highest of them
 * (AND/OR and parenthesised groups stop it). Lone `NOT (x)` calls are compiled as NOT directly.
 */
export function hoistNotCalls(node: SqlAst): SqlAst {
  let result = node;
  if (isSpineOperator(node)) {
    let p = node;
    while (isSpineOperator(p.left)) p = p.left;
    if (isNotCall(p.left)) {
      p.left = p.left.args.value[0];
      result = { type: 'unary_expr', operator: 'NOT', expr: node };
    }
  }
  for (const key of Object.keys(node)) {
    if (key === 'loc') continue;
    const v = node[key];
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) if (isNode(v[i])) v[i] = hoistNotCalls(v[i]);
    } else if (isNode(v)) node[key] = hoistNotCalls(v);
  }
  return result;
}

function isSpineOperator(n: SqlAst): boolean {
  return isNode(n) && n.type === 'binary_expr' && !isLogical(n) && !n.parentheses;
}

function isNotCall(n: SqlAst): boolean {
  if (!isNode(n) || n.type !== 'function' || n.args?.value?.length !== 1) return false;
  const parts = n.name?.name;
  return Array.isArray(parts) && parts.length === 1 && String(parts[0].value).toUpperCase() === 'NOT';
}

/**
 * node-sql-parser (5.x, every dialect) gives AND and OR the same precedence and mixed
 * associativity: `a AND b OR c` comes back as `a AND (b OR c)`. The operands still appear in
 * source order, so this pass flattens each unparenthesised AND/OR chain in order and rebuilds it
 * with SQL's rule (AND binds tighter than OR, both left-associative). Parenthesised sub-expressions
 * carry `parentheses: true` and stay a unit. Arithmetic and comparison precedence are correct in
 * the parser and left alone. The AST is rewritten in place and returned.
 */
export function fixLogicalPrecedence(node: SqlAst): SqlAst {
  if (isLogical(node)) {
    const seq: Array<SqlAst | 'AND' | 'OR'> = [];
    flattenInto(node.left, seq);
    seq.push(node.operator.toUpperCase());
    flattenInto(node.right, seq);
    const rebuilt = rebuild(seq);
    if (node.parentheses) rebuilt.parentheses = true;
    if (node.loc) rebuilt.loc = node.loc;
    return rebuilt;
  }
  for (const key of Object.keys(node)) {
    if (key === 'loc') continue;
    const v = node[key];
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) if (isNode(v[i])) v[i] = fixLogicalPrecedence(v[i]);
    } else if (isNode(v)) node[key] = fixLogicalPrecedence(v);
  }
  return node;
}

function isNode(v: unknown): v is SqlAst {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isLogical(n: SqlAst): boolean {
  if (n.type !== 'binary_expr' || typeof n.operator !== 'string') return false;
  const op = n.operator.toUpperCase();
  return op === 'AND' || op === 'OR';
}

function flattenInto(n: SqlAst, seq: Array<SqlAst | 'AND' | 'OR'>): void {
  if (isLogical(n) && !n.parentheses) {
    flattenInto(n.left, seq);
    seq.push(n.operator.toUpperCase());
    flattenInto(n.right, seq);
  } else {
    seq.push(fixLogicalPrecedence(n));
  }
}

/** seq alternates operand, operator, operand, ... */
function rebuild(seq: Array<SqlAst | 'AND' | 'OR'>): SqlAst {
  let orAcc: SqlAst | null = null;
  let andAcc = seq[0] as SqlAst;
  for (let i = 1; i < seq.length; i += 2) {
    const op = seq[i];
    const operand = seq[i + 1] as SqlAst;
    if (op === 'AND') {
      andAcc = { type: 'binary_expr', operator: 'AND', left: andAcc, right: operand };
    } else {
      orAcc = orAcc === null ? andAcc : { type: 'binary_expr', operator: 'OR', left: orAcc, right: andAcc };
      andAcc = operand;
    }
  }
  return orAcc === null ? andAcc : { type: 'binary_expr', operator: 'OR', left: orAcc, right: andAcc };
}
