/** The config form of each node type. Field paths mirror the job format (`config.window.size`). */
import type { JobNode, WindowSpec, EventTimeConfig } from '../../../engine/graph/types.ts';
import { CheckField, DurationField, NumberField, SelectField, TextField } from '../fields/fields.tsx';
import { ExprField } from '../fields/ExprField.tsx';
import { InputColumnsNote } from './InputColumnsNote.tsx';
import { editConfig, replaceConfig } from './edit.ts';
import { useDoc } from '../state.ts';
import { sampledColumns, useSampled, type Sampled } from '../model/sampledColumns.ts';

export interface FormProps<T extends JobNode['type']> {
  node: Extract<JobNode, { type: T }>;
  columns: readonly string[];
  /** Message for a config path relative to `config` (e.g. `window.size`), or null. */
  err: (path: string) => string | null;
}

const FORMATS = [
  { value: 'jsonl', label: 'JSON lines' },
  { value: 'csv', label: 'CSV (header row)' },
] as const;
const SINK_FORMATS = [
  ...FORMATS,
  { value: 'changelog-json', label: 'Changelog JSON ({op, data} per change)' },
] as const;

export function EventTimeFields({
  id,
  et,
  err,
  columns,
}: {
  id: string;
  et: EventTimeConfig | undefined;
  err: FormProps<'filter'>['err'];
  columns: readonly string[];
}) {
  return (
    <fieldset className="group">
      <legend>Event time</legend>
      <CheckField
        label="Records carry event time"
        value={!!et}
        testId="f-eventTime"
        onChange={(on) =>
          editConfig(
            id,
            ['eventTime'],
            on ? { field: columns.includes('ts') ? 'ts' : 'time', maxOutOfOrderness: '1s' } : undefined,
          )
        }
        hint="Watermarks follow this column; windows need it."
      />
      {et && (
        <>
          <TextField
            label="Time column"
            value={et.field}
            testId="f-eventTime.field"
            error={err('eventTime.field')}
            hint="Epoch milliseconds or an ISO-8601 string"
            onChange={(v) => editConfig(id, ['eventTime', 'field'], v ?? '')}
          />
          <DurationField
            label="Max out-of-orderness"
            value={et.maxOutOfOrderness}
            testId="f-eventTime.maxOutOfOrderness"
            placeholder="0"
            error={err('eventTime.maxOutOfOrderness')}
            hint="How long the watermark waits for late events"
            onChange={(v) => editConfig(id, ['eventTime', 'maxOutOfOrderness'], v)}
          />
          <DurationField
            label="Idle timeout"
            value={et.idleTimeout}
            testId="f-eventTime.idleTimeout"
            placeholder="never"
            error={err('eventTime.idleTimeout')}
            hint="An input silent this long stops holding the watermark back"
            onChange={(v) => editConfig(id, ['eventTime', 'idleTimeout'], v)}
          />
        </>
      )}
    </fieldset>
  );
}

function columnsText(c: Record<string, string> | undefined): string | undefined {
  return c
    ? Object.entries(c)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')
    : undefined;
}
function parseColumns(text: string | undefined): Record<string, string> | undefined {
  if (!text) return undefined;
  const out: Record<string, string> = {};
  for (const part of text.split(',')) {
    const [name, ...type] = part.trim().split(/\s+/);
    if (name) out[name] = type.join(' ') || 'STRING';
  }
  return out;
}

export function FileSourceForm({ node, err, columns }: FormProps<'source.file'>) {
  const c = node.config;
  const path = useDoc((s) => s.path);
  const sampled = useSampled(() => sampledColumns(node, path));
  const fromData = sampled?.columns.map((x) => x.name) ?? [];
  return (
    <>
      <TextField
        label="Path"
        value={c.path}
        testId="f-path"
        error={err('path')}
        hint="Relative to the job file's folder"
        onChange={(v) => editConfig(node.id, ['path'], v ?? '')}
      />
      <SelectField
        label="Format"
        value={c.format}
        options={FORMATS}
        testId="f-format"
        error={err('format')}
        onChange={(v) => editConfig(node.id, ['format'], v ?? 'jsonl')}
      />
      <CheckField
        label="Follow the file as it grows"
        value={c.follow}
        testId="f-follow"
        onChange={(v) => editConfig(node.id, ['follow'], v)}
      />
      <SelectField
        label="On a bad record"
        value={c.onBadRecord}
        allowUnset="default (fail)"
        testId="f-onBadRecord"
        options={[
          { value: 'skip', label: 'skip and count it' },
          { value: 'fail', label: 'fail the job' },
          { value: 'dead-letter', label: "dead-letter: send it to the 'bad' port" },
        ]}
        onChange={(v) => editConfig(node.id, ['onBadRecord'], v)}
      />
      <TextField
        label="Columns"
        value={columnsText(c.columns)}
        testId="f-columns"
        error={err('columns')}
        placeholder={sampled?.columns.length ? 'as sampled below' : 'inferred from the data'}
        hint={
          c.columns ? (
            'Declared: these are the columns downstream fields offer'
          ) : (
            <SampledHint sampled={sampled} onDeclare={(cols) => editConfig(node.id, ['columns'], cols)} />
          )
        }
        onChange={(v) => editConfig(node.id, ['columns'], parseColumns(v))}
      />
      <EventTimeFields
        id={node.id}
        et={c.eventTime}
        err={err}
        columns={columns.length ? columns : c.columns ? Object.keys(c.columns) : fromData}
      />
    </>
  );
}

/** What the host sampled from the file: its columns with their types, and a way to declare them. */
function SampledHint({
  sampled,
  onDeclare,
}: {
  sampled: Sampled | null;
  onDeclare: (cols: Record<string, string>) => void;
}) {
  if (!sampled) return <>Optional: name TYPE, … (e.g. user STRING, amount DOUBLE)</>;
  if (!sampled.columns.length)
    return (
      <span data-testid="source-columns" data-count={0}>
        Could not sample the data: {sampled.message ?? 'no records'}
      </span>
    );
  return (
    <span data-testid="source-columns" data-count={sampled.columns.length}>
      From the data:{' '}
      {sampled.columns.map((x, i) => (
        <span key={x.name}>
          {i ? ', ' : ''}
          <code>{x.name}</code> <span className="dim">{x.type}</span>
        </span>
      ))}{' '}
      <button
        type="button"
        className="linkish"
        data-testid="declare-columns"
        onClick={() => onDeclare(Object.fromEntries(sampled.columns.map((x) => [x.name, x.type])))}
      >
        declare them
      </button>
    </span>
  );
}

export function GeneratorForm({ node, err }: FormProps<'source.generator'>) {
  const c = node.config;
  return (
    <>
      <NumberField
        label="Records"
        value={c.count}
        integer
        min={0}
        testId="f-count"
        placeholder="unbounded"
        error={err('count')}
        onChange={(v) => editConfig(node.id, ['count'], v)}
      />
      <NumberField
        label="Rate (records/s)"
        value={c.rate}
        min={0}
        testId="f-rate"
        placeholder="as fast as possible"
        error={err('rate')}
        onChange={(v) => editConfig(node.id, ['rate'], v)}
      />
      <NumberField
        label="Keys"
        value={c.keys}
        integer
        min={1}
        testId="f-keys"
        placeholder="10"
        error={err('keys')}
        hint="Keys are k0 … k(n-1)"
        onChange={(v) => editConfig(node.id, ['keys'], v)}
      />
      <NumberField
        label="Seed"
        value={c.seed}
        integer
        testId="f-seed"
        placeholder="0"
        error={err('seed')}
        onChange={(v) => editConfig(node.id, ['seed'], v)}
      />
      <DurationField
        label="Out-of-orderness jitter"
        value={c.outOfOrderness}
        testId="f-outOfOrderness"
        placeholder="0"
        error={err('outOfOrderness')}
        onChange={(v) => editConfig(node.id, ['outOfOrderness'], v)}
      />
      <NumberField
        label="Event-time step (ms)"
        value={c.step}
        min={0}
        testId="f-step"
        placeholder="10"
        error={err('step')}
        onChange={(v) => editConfig(node.id, ['step'], v)}
      />
      <EventTimeFields id={node.id} et={c.eventTime} err={err} columns={['seq', 'key', 'value', 'ts']} />
    </>
  );
}

export function FilterForm({ node, err, columns }: FormProps<'filter'>) {
  return (
    <ExprField
      label="Where"
      kind="where"
      value={node.config.where}
      columns={columns}
      testId="f-where"
      placeholder="amount >= 10 AND country = 'NL'"
      validatorError={err('where')}
      hint="A Flink SQL condition; records where it is not TRUE are dropped"
      onChange={(v) => editConfig(node.id, ['where'], v ?? '')}
    />
  );
}

export function MapForm({ node, err, columns }: FormProps<'map'>) {
  return (
    <ExprField
      label="Select"
      kind="select"
      value={node.config.select}
      columns={columns}
      testId="f-select"
      placeholder="user, amount * 1.21 AS gross"
      validatorError={err('select')}
      hint="A Flink SQL select list; * keeps every input column"
      onChange={(v) => editConfig(node.id, ['select'], v ?? '')}
    />
  );
}

export const WINDOW_KINDS = [
  { value: 'tumbling', label: 'Tumbling (fixed, non-overlapping)' },
  { value: 'sliding', label: 'Sliding (overlapping)' },
  { value: 'session', label: 'Session (closes after a gap)' },
] as const;

/** A window of another kind that keeps the old one's length (size or gap). */
export function windowOfKind(kind: WindowSpec['kind'], old: WindowSpec): WindowSpec {
  const size = old.kind === 'session' ? old.gap : old.size;
  if (kind === 'tumbling') return { kind, size };
  if (kind === 'sliding') return { kind, size, slide: old.kind === 'sliding' ? old.slide : size };
  return { kind, gap: size };
}

export function WindowForm({ node, err, columns }: FormProps<'window'>) {
  const c = node.config;
  const w = c.window ?? { kind: 'tumbling', size: '10s' };
  return (
    <>
      <ExprField
        label="Key by"
        kind="keyBy"
        value={c.keyBy}
        columns={columns}
        testId="f-keyBy"
        placeholder="one global window"
        validatorError={err('keyBy')}
        hint="Comma-separated columns; empty = all records together"
        onChange={(v) => editConfig(node.id, ['keyBy'], v)}
      />
      <SelectField
        label="Window"
        value={w.kind}
        options={WINDOW_KINDS}
        testId="f-window.kind"
        onChange={(v) => replaceConfig(node.id, { ...c, window: windowOfKind(v ?? 'tumbling', w) })}
      />
      {w.kind !== 'session' && (
        <DurationField
          label="Size"
          value={w.size}
          testId="f-window.size"
          error={err('window.size')}
          onChange={(v) => editConfig(node.id, ['window', 'size'], v ?? '')}
        />
      )}
      {w.kind === 'sliding' && (
        <DurationField
          label="Slide"
          value={w.slide}
          testId="f-window.slide"
          error={err('window.slide')}
          onChange={(v) => editConfig(node.id, ['window', 'slide'], v ?? '')}
        />
      )}
      {w.kind === 'session' && (
        <DurationField
          label="Gap"
          value={w.gap}
          testId="f-window.gap"
          error={err('window.gap')}
          onChange={(v) => editConfig(node.id, ['window', 'gap'], v ?? '')}
        />
      )}
      <ExprField
        label="Aggregates"
        kind="aggregates"
        value={c.aggregates}
        columns={columns}
        testId="f-aggregates"
        placeholder="COUNT(*) AS n, SUM(amount) AS total"
        validatorError={err('aggregates')}
        hint="COUNT, SUM, AVG, MIN, MAX with AS aliases"
        onChange={(v) => editConfig(node.id, ['aggregates'], v ?? '')}
      />
      <DurationField
        label="Allowed lateness"
        value={c.allowedLateness}
        testId="f-allowedLateness"
        placeholder="0"
        error={err('allowedLateness')}
        hint="Later records leave through the late port"
        onChange={(v) => editConfig(node.id, ['allowedLateness'], v)}
      />
    </>
  );
}

export function FileSinkForm({ node, err, columns }: FormProps<'sink.file'>) {
  return (
    <>
      <TextField
        label="Path"
        value={node.config.path}
        testId="f-path"
        error={err('path')}
        hint="Folder for committed files, relative to the job file"
        onChange={(v) => editConfig(node.id, ['path'], v ?? '')}
      />
      <SelectField
        label="Format"
        value={node.config.format}
        options={SINK_FORMATS}
        testId="f-format"
        error={err('format')}
        onChange={(v) => editConfig(node.id, ['format'], v ?? 'jsonl')}
      />
      <InputColumnsNote columns={columns} />
      <p className="note">Exactly once: records become visible when the checkpoint that covers them completes.</p>
    </>
  );
}

export function PreviewForm({ node, err, columns }: FormProps<'sink.preview'>) {
  return (
    <>
      <NumberField
        label="Keep last"
        value={node.config.limit}
        integer
        min={1}
        testId="f-limit"
        placeholder="100"
        error={err('limit')}
        hint="Records kept for the live preview"
        onChange={(v) => editConfig(node.id, ['limit'], v)}
      />
      <InputColumnsNote columns={columns} />
    </>
  );
}

export function UnionForm() {
  return <p className="note">Merges every connected input. Its watermark is the minimum of its inputs' watermarks.</p>;
}
