/**
 * The Flink versions the export targets, and the configuration keys each one reads. Flink 1.20
 * renamed the checkpoint keys to `execution.checkpointing.*` (FLIP-406/FLIP-411); 1.19 reads only
 * the old names and ignores the new ones silently, so a 1.19 script must use the old ones.
 * (Flink docs: deployment/config, "Checkpointing" in 1.19 and 1.20.)
 */
export type FlinkVersion = '1.19' | '1.20' | '2.x';
export const FLINK_VERSIONS: readonly FlinkVersion[] = ['1.19', '1.20', '2.x'];
/** The newest: what `weir export` targets unless told otherwise. */
export const DEFAULT_FLINK_VERSION: FlinkVersion = '2.x';

export function isFlinkVersion(v: string): v is FlinkVersion {
  return (FLINK_VERSIONS as readonly string[]).includes(v);
}

export interface CheckpointKeys {
  storage: string;
  dir: string;
  retained: string;
  incremental: string;
}

export function checkpointKeys(v: FlinkVersion): CheckpointKeys {
  return v === '1.19'
    ? {
        storage: 'state.checkpoint-storage',
        dir: 'state.checkpoints.dir',
        retained: 'state.checkpoints.num-retained',
        incremental: 'state.backend.incremental',
      }
    : {
        storage: 'execution.checkpointing.storage',
        dir: 'execution.checkpointing.dir',
        retained: 'execution.checkpointing.num-retained',
        incremental: 'execution.checkpointing.incremental',
      };
}

/** How the header names the target: "Flink 1.19", "Flink 1.20", "Flink 2.x". */
export function versionLabel(v: FlinkVersion): string {
  return `Flink ${v}`;
}
