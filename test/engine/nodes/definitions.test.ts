// Every node type's definition (engine/nodes/<type>/definition.ts) is consistent with itself: its
// form's fields name keys of its config schema, the placeholder of a defaulted key shows the
// default, the config a palette drop starts with is valid, and the engine reads the same defaults.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { NODE_DEFINITIONS, NODE_TYPES, isNodeType, nodeDefinition } from '../../../engine/graph/node-types.ts';
import { generatorParams } from '../../../engine/connectors/generator-source.ts';
import { GENERATOR_DEFAULTS } from '../../../engine/nodes/source-generator/definition.ts';

const configKeys = (schema: z.ZodType): string[] => Object.keys((schema as z.ZodObject).shape);

test('the registry lists each type once, and NODE_TYPES is its order', () => {
  const types = NODE_DEFINITIONS.map((d) => d.type);
  assert.equal(new Set(types).size, types.length);
  assert.deepEqual([...NODE_TYPES], types);
  for (const t of types) {
    assert.ok(isNodeType(t));
    assert.equal(nodeDefinition(t).type, t);
  }
  assert.equal(isNodeType('sink.nowhere'), false);
});

test("every form field edits a key of its type's config schema", () => {
  for (const d of NODE_DEFINITIONS) {
    const keys = configKeys(d.configSchema);
    for (const f of d.fields) {
      if (f.path === undefined) continue;
      assert.ok(
        keys.includes(f.path.split('.')[0]),
        `${d.type}: field '${f.path}' is not in its config (${keys.join(', ')})`,
      );
    }
  }
});

test('the placeholder of a defaulted key shows the default', () => {
  let checked = 0;
  for (const d of NODE_DEFINITIONS) {
    const defaults = d.defaults as Record<string, unknown>;
    for (const f of d.fields) {
      if (f.path === undefined || !(f.path in defaults) || f.kind === 'select' || f.kind === 'check') continue;
      assert.equal(f.placeholder, String(defaults[f.path]), `${d.type}.${f.path}`);
      checked++;
    }
  }
  assert.ok(checked >= 8, `only ${checked} defaulted fields checked`);
});

test('a node dropped from the palette starts with a config its schema accepts, but for fields left to fill', () => {
  for (const d of NODE_DEFINITIONS) {
    const r = d.configSchema.safeParse(d.palette.newConfig());
    // A filter starts with an empty condition: the only problem allowed is an empty required text.
    const issues = r.success ? [] : r.error.issues.filter((i) => !(i.code === 'too_small' && i.origin === 'string'));
    assert.deepEqual(issues, [], d.type);
  }
});

test("the generator reads its definition's defaults (the form shows the same keys: 10)", () => {
  const p = generatorParams({});
  assert.equal(p.keys, GENERATOR_DEFAULTS.keys);
  assert.equal(p.keys, 10);
  assert.equal(p.step, GENERATOR_DEFAULTS.step);
  assert.equal(p.seed, GENERATOR_DEFAULTS.seed);
  const keysField = nodeDefinition('source.generator').fields.find((f) => f.path === 'keys');
  assert.equal(keysField?.kind === 'number' ? keysField.placeholder : undefined, '10');
});
