// Regenerates weir.job.v1.schema.json from the zod schema in engine/graph/schema.ts:
//   node --import tsx schemas/generate.ts
// test/engine/graph/schema.test.ts fails when the committed file differs from what this writes.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { jobJsonSchema } from '../engine/graph/schema.ts';

export const SCHEMA_FILE = fileURLToPath(new URL('./weir.job.v1.schema.json', import.meta.url));

export function renderJobJsonSchema(): string {
  return `${JSON.stringify(jobJsonSchema(), null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(SCHEMA_FILE, renderJobJsonSchema());
  console.log(`wrote ${SCHEMA_FILE}`);
}
