/** The job's settings, shown in the inspector when nothing is selected. */
import type { StateBackendKind } from '../../../engine/graph/types.ts';
import { DEFAULT_SETTINGS } from '../../../engine/graph/types.ts';
import { formatDuration, formatSize } from '../../../engine/graph/units.ts';
import { useDoc } from '../state.ts';
import { CheckField, DurationField, NumberField, SelectField, SizeField, TextField } from '../fields/fields.tsx';
import { editJobName, editSettings, messageAt } from './edit.ts';
import { canGrantFolder, grantFolderForDocument } from '../run/grantFolder.ts';

/** One line each, from the comparison of the three backends in docs/architecture.md. */
export const BACKEND_EXPLANATIONS: Record<StateBackendKind, string> = {
  memory:
    "State on the task heap, snapshots kept in the coordinator's memory (max 5 MB each by default): for development and small state; lost if the coordinator dies.",
  fs: 'State on the task heap, snapshots written to a folder: durable, for large state and long windows.',
  rocksdb:
    'State in RocksDB on local disk (off heap), snapshots to a folder: very large state, and the only backend with incremental checkpoints.',
};

const BACKENDS = [
  { value: 'memory', label: 'Memory' },
  { value: 'fs', label: 'Filesystem (fs)' },
  { value: 'rocksdb', label: 'RocksDB' },
] as const;

export function SettingsForm() {
  const name = useDoc((s) => s.job.name);
  const st = useDoc((s) => s.job.settings) ?? {};
  const problems = useDoc((s) => s.problems.settings);
  const jobProblems = useDoc((s) => s.problems.other);
  const backend = st.stateBackend ?? DEFAULT_SETTINGS.stateBackend;
  const cp = st.checkpointing ?? {};
  const d = DEFAULT_SETTINGS;
  const err = (p: string) => messageAt(problems, `settings.${p}`);
  return (
    <div className="inspector__body" data-testid="settings-form">
      <div className="inspector__head">
        <div>
          <div className="inspector__title">Job settings</div>
          <div className="inspector__sub">Nothing selected: these apply to the whole pipeline.</div>
        </div>
      </div>
      <TextField
        label="Job name"
        value={name}
        testId="s-name"
        error={messageAt(jobProblems, 'name')}
        onChange={(v) => editJobName(v ?? '')}
      />
      <fieldset className="group">
        <legend>State backend</legend>
        <SelectField
          label="Backend"
          value={st.stateBackend}
          options={BACKENDS}
          allowUnset="Memory (default)"
          testId="s-stateBackend"
          error={err('stateBackend')}
          onChange={(v) => editSettings(['stateBackend'], v)}
        />
        <p className="note" data-testid="s-backend-explanation">
          {BACKEND_EXPLANATIONS[backend]}
        </p>
        <SizeField
          label="Memory state limit"
          value={st.memoryStateLimit}
          testId="s-memoryStateLimit"
          placeholder={`${formatSize(d.memoryStateLimit)} (default)`}
          error={err('memoryStateLimit')}
          disabled={backend !== 'memory'}
          hint="Largest snapshot the memory backend accepts"
          onChange={(v) => editSettings(['memoryStateLimit'], v)}
        />
      </fieldset>
      <fieldset className="group">
        <legend>Checkpoints</legend>
        <DurationField
          label="Interval"
          value={cp.interval}
          testId="s-interval"
          placeholder="off"
          error={err('checkpointing.interval')}
          hint="Empty = no checkpoints: file sinks commit only when the input ends, and a failure restarts from the beginning"
          onChange={(v) => editSettings(['checkpointing', 'interval'], v)}
        />
        <SelectField
          label="Mode"
          value={cp.mode}
          allowUnset="exactly-once (default)"
          testId="s-mode"
          error={err('checkpointing.mode')}
          options={[
            { value: 'exactly-once', label: 'exactly-once (aligned barriers)' },
            { value: 'at-least-once', label: 'at-least-once (no alignment)' },
          ]}
          onChange={(v) => editSettings(['checkpointing', 'mode'], v)}
        />
        <DurationField
          label="Timeout"
          value={cp.timeout}
          testId="s-timeout"
          placeholder={`${formatDuration(d.checkpointing.timeout)} (default)`}
          error={err('checkpointing.timeout')}
          onChange={(v) => editSettings(['checkpointing', 'timeout'], v)}
        />
        <DurationField
          label="Min pause between"
          value={cp.minPause}
          testId="s-minPause"
          placeholder="0"
          error={err('checkpointing.minPause')}
          onChange={(v) => editSettings(['checkpointing', 'minPause'], v)}
        />
        <NumberField
          label="Retained checkpoints"
          value={cp.retained}
          integer
          min={1}
          testId="s-retained"
          placeholder={String(d.checkpointing.retained)}
          error={err('checkpointing.retained')}
          onChange={(v) => editSettings(['checkpointing', 'retained'], v)}
        />
        <CheckField
          label="Incremental (RocksDB only)"
          value={cp.incremental}
          testId="s-incremental"
          disabled={backend !== 'rocksdb'}
          error={err('checkpointing.incremental')}
          hint={
            backend === 'rocksdb'
              ? 'Upload only new RocksDB files per checkpoint'
              : 'Choose the RocksDB backend to enable'
          }
          onChange={(v) => editSettings(['checkpointing', 'incremental'], v)}
        />
      </fieldset>
      <fieldset className="group">
        <legend>Parallelism and restarts</legend>
        <NumberField
          label="Parallelism"
          value={st.parallelism}
          integer
          min={1}
          testId="s-parallelism"
          placeholder={String(d.parallelism)}
          error={err('parallelism')}
          onChange={(v) => editSettings(['parallelism'], v)}
        />
        <NumberField
          label="Max parallelism (key groups)"
          value={st.maxParallelism}
          integer
          min={1}
          testId="s-maxParallelism"
          placeholder={String(d.maxParallelism)}
          error={err('maxParallelism')}
          onChange={(v) => editSettings(['maxParallelism'], v)}
        />
        <NumberField
          label="Restart attempts"
          value={st.restart?.attempts}
          integer
          min={0}
          testId="s-restart.attempts"
          placeholder={String(d.restart.attempts)}
          error={err('restart.attempts')}
          onChange={(v) => editSettings(['restart', 'attempts'], v)}
        />
        <DurationField
          label="Restart delay"
          value={st.restart?.delay}
          testId="s-restart.delay"
          placeholder={`${formatDuration(d.restart.delay)} (default)`}
          error={err('restart.delay')}
          onChange={(v) => editSettings(['restart', 'delay'], v)}
        />
      </fieldset>
      {canGrantFolder() && (
        <fieldset className="group">
          <legend>Files</legend>
          <p className="note">
            Runs read and write only in the workspace and this job's folder. Data kept elsewhere needs its folder
            allowed, for this document, until the app closes.
          </p>
          <button
            type="button"
            className="btn"
            data-testid="grant-folder"
            onClick={() => void grantFolderForDocument()}
          >
            Allow a folder for this document…
          </button>
        </fieldset>
      )}
    </div>
  );
}
