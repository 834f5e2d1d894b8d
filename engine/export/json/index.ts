/**
 * The weir.job/v1 JSON export, one function for `weir export --format json` and the host's
 * `exportJob`: the normalized job written out with every default filled in (validating the text
 * again yields the same job), so both paths write the same document.
 */
import type { NormalizedJob } from '../../graph/types.ts';
import { toJobDocument } from '../../graph/normalize.ts';

export function exportJobJson(job: NormalizedJob): string {
  return `${JSON.stringify(toJobDocument(job), null, 2)}\n`;
}
