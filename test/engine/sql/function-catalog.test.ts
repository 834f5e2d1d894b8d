/**
 * The function catalog against docs/functions.md: every function Weir runs is listed there as
 * supported, every function it refuses as refused, and each declares its parameter families and
 * signature (read by the checker and the designer's autocomplete). A refused function is refused
 * by name with its reason, never as an unknown identifier.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { AGGREGATE_ONLY, FUNCTIONS, UNSUPPORTED_FUNCTIONS } from '../../../engine/sql/functions.ts';
import { compileProjection } from '../../../engine/sql/index.ts';

/** Names the parser gives a keyword form: `s IS JSON` is IS_JSON(s, 'VALUE'). */
const DOC_NAMES: Record<string, string> = { IS_JSON: 'IS JSON' };

/** status by the names in a row's first cell (`NAME`, `A`, `B`). */
function docStatuses(): Map<string, string> {
  const doc = readFileSync(new URL('../../../docs/functions.md', import.meta.url), 'utf8');
  const out = new Map<string, string>();
  for (const line of doc.split('\n')) {
    const m = /^\| (.+?) \| (supported|refused|not applicable) \|/.exec(line);
    if (!m) continue;
    for (const name of m[1].matchAll(/`([^`]+)`/g)) out.set(name[1], m[2]);
  }
  return out;
}

describe('function catalog', () => {
  const statuses = docStatuses();

  it('lists every function Weir runs as supported in docs/functions.md', () => {
    const missing = Object.keys(FUNCTIONS).filter((n) => statuses.get(DOC_NAMES[n] ?? n) !== 'supported');
    assert.deepEqual(missing, []);
  });

  it('lists every refused function as refused, and refuses every function the page refuses by name', () => {
    const missing = Object.keys(UNSUPPORTED_FUNCTIONS).filter(
      (n) => statuses.get(n) !== (n in AGGREGATE_ONLY ? 'supported' : 'refused'),
    );
    assert.deepEqual(missing, [], 'refused, or aggregates refused outside an aggregates list');
    const plainNames = [...statuses].filter(([n, s]) => s === 'refused' && /^[A-Z_0-9]+$/.test(n)).map(([n]) => n);
    assert.deepEqual(
      plainNames.filter((n) => !(n in UNSUPPORTED_FUNCTIONS)),
      [],
      'a refused name that Weir would call unknown',
    );
    assert.ok(Object.keys(FUNCTIONS).length >= 110 && plainNames.length >= 60, `${statuses.size} rows`);
  });

  it('gives every function its parameter families and a signature naming it', () => {
    for (const [name, spec] of Object.entries(FUNCTIONS)) {
      assert.ok(spec.params, `${name} has params`);
      assert.ok(spec.params.length >= Math.min(spec.min, 1), `${name}: a family per parameter`);
      assert.ok(spec.signature?.includes(DOC_NAMES[name] ?? name), `${name}: ${spec.signature}`);
    }
  });

  it("refuses Flink's functions by name, with the reason", () => {
    for (const [name, why] of [
      ['ARRAY_AGG', 'no ARRAY or MAP type'],
      ['UUID', 'not deterministic'],
      ['TO_DATE', 'no DATE or TIME type'],
      ['ROW_NUMBER', 'topn'],
    ]) {
      assert.throws(
        () => compileProjection(`${name}(x) AS v`),
        (e: Error) => e.message.startsWith(`Flink's ${name} is not supported in Weir: `) && e.message.includes(why),
      );
    }
  });
});
