// Export and the planner use the same types (issue 22), for every example and Nexmark query
// (derived-types.ts says how).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { compareSinkTypes as compare, type Tally } from './derived-types.ts';
import { ROOT } from '../../cli/cli-helpers.ts';

test('every example and Nexmark query: each sink table declares the planner types of its input', () => {
  const tally: Tally = { compared: 0, jobs: 0, differing: [] };
  const dir = join(ROOT, 'examples');
  for (const name of readdirSync(dir)) {
    const file = join(dir, name, 'job.weir.json');
    if (existsSync(file)) compare(name, JSON.parse(readFileSync(file, 'utf8')), join(dir, name), tally);
  }
  const nexmark = join(dir, 'nexmark');
  for (const f of readdirSync(nexmark).filter((x) => x.endsWith('.weir.json')))
    compare(f, JSON.parse(readFileSync(join(nexmark, f), 'utf8')), nexmark, tally);
  assert.ok(tally.compared > 150, `${tally.compared} columns compared`);
  // Weir's own types differ from the script's only where the Nexmark time columns flow.
  for (const d of tally.differing) assert.match(d, /^q\d+\.weir\.json -> \w+: \w*(dateTime|expires)$/i, d);
});
