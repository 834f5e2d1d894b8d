/**
 * Sink recovery hooks by node type (contracts/sink-recovery.ts): what the job master runs for a
 * sink node before an attempt starts. A new transactional sink adds its hook here; the runtime
 * stays connector-agnostic.
 */
import { resolve } from 'node:path';
import type { SinkRecovery } from '../contracts/sink-recovery.ts';
import type { FileSinkState } from './file-sink.ts';
import { recoverSinkFolder } from './file-sink-txn.ts';
import { fileSinkFolders, prepareFileSinkOutput, recordFileSinkCommits } from './file-sink-output.ts';
import { postgresSinkRecovery } from './postgres/sink-recovery.ts';
import { kafkaSinkRecovery } from './kafka/sink-recovery.ts';
import { fileSink } from '../nodes/sink-file/definition.ts';
import { postgresSink } from '../nodes/sink-postgres/definition.ts';
import { kafkaSink } from '../nodes/sink-kafka/definition.ts';

const fileSinkRecovery: SinkRecovery = {
  recover({ node, baseDir, states }) {
    if (node.type !== fileSink.type) return;
    const pending = states.flatMap((s) => (s as FileSinkState | undefined)?.pending ?? []);
    recoverSinkFolder(resolve(baseDir, node.config.path), pending);
  },
  lineage(states) {
    for (const s of states) {
      const lineage = (s as Partial<FileSinkState> | undefined)?.lineage;
      if (typeof lineage === 'string') return lineage;
    }
    return null;
  },
  outputFolders: fileSinkFolders,
  prepareOutput: prepareFileSinkOutput,
  recordCommits: recordFileSinkCommits,
};

const SINK_RECOVERY: Readonly<Record<string, SinkRecovery>> = {
  [fileSink.type]: fileSinkRecovery,
  [postgresSink.type]: postgresSinkRecovery,
  [kafkaSink.type]: kafkaSinkRecovery,
};

/** The recovery hook of a node type, or null when its output needs none (preview, operators). */
export function sinkRecoveryFor(nodeType: string): SinkRecovery | null {
  return SINK_RECOVERY[nodeType] ?? null;
}
