/**
 * What a join reads of each input beyond its keys: a condition on one input only (`A.category =
 * 10`) becomes a `filter` in front of that input, and a computed column of a hand-written source
 * read through the join (`B.dateTime`) its expression over that side's columns.
 */
import { tokenize } from '../../sql/lexer.ts';
import type { JobBuilder, Relation } from './builder.ts';
import type { SelectShape } from './query-shape.ts';
import { inlineComputed } from './computed-columns.ts';
import { stripQualifier } from './qualifier.ts';
import { filter as filterNode } from '../../nodes/filter/definition.ts';

function sidesOf(text: string): Set<string> | null {
  let toks;
  try {
    toks = tokenize(text);
  } catch {
    return null;
  }
  const sides = new Set<string>();
  for (let k = 0; k < toks.length; k++)
    if (toks[k + 1]?.text === '.' && toks[k - 1]?.text !== '.' && /^[LR]$/.test(toks[k].text)) sides.add(toks[k].text);
  return sides;
}

/** 'L' or 'R' when the condition (written with L./R.) reads one input only. */
export function oneSide(text: string): 'L' | 'R' | null {
  const sides = sidesOf(text);
  return sides && sides.size === 1 ? ([...sides][0] as 'L' | 'R') : null;
}

/** The condition over that input alone: `L.x` -> `x`. */
export function stripSide(text: string, side: 'L' | 'R'): string {
  return stripQualifier(text, side);
}

/** Both inputs' computed columns inlined (`L.dateTime` -> `(TO_TIMESTAMP_LTZ(L.dateTime_ms, 3))`). */
export function inlineSides(text: string, left: Relation, right: Relation): string {
  return inlineComputed(inlineComputed(text, left, 'L'), right, 'R');
}

/** The input with its one-side conditions as a filter in front (or as it is, without any). */
export function filtered(
  b: JobBuilder,
  name: string,
  rel: Relation,
  conditions: string[],
  port: 'left' | 'right',
  q: SelectShape,
): Relation {
  if (conditions.length === 0) return rel;
  const id = b.freeId(`${name}_${port}`);
  const where = conditions.map((c) => (conditions.length > 1 ? `(${c})` : c)).join(' AND ');
  b.add({ id, type: filterNode.type, config: { where: inlineComputed(where, rel) } }, q.pos, null);
  b.connect(rel, id);
  return { ...rel, nodes: [id] };
}
