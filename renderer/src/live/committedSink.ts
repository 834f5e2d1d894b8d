/** The selected sink that keeps committed output (file, PostgreSQL), for the Data tab. Plain TS. */
import type { JobNode } from '../../../engine/graph/types.ts';
import { fileSink } from '../../../engine/nodes/sink-file/definition.ts';
import { postgresSink } from '../../../engine/nodes/sink-postgres/definition.ts';

const KEEPS_OUTPUT: ReadonlySet<string> = new Set([fileSink.type, postgresSink.type]);

export function keepsCommittedOutput(n: Pick<JobNode, 'type'>): boolean {
  return KEEPS_OUTPUT.has(n.type);
}

/** The first selected node that is such a sink, or null. */
export function committedSink(nodes: readonly JobNode[], selected: ReadonlySet<string>): JobNode | null {
  for (const id of selected) {
    const n = nodes.find((x) => x.id === id);
    if (n && keepsCommittedOutput(n)) return n;
  }
  return null;
}
