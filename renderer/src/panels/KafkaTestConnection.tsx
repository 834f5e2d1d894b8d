/**
 * The `kafkaTest` field kind: a Kafka node's "Test connection". It asks the host
 * (EngineHost.testKafka) for the topics on the config's `bootstrap` with their partition counts, and
 * for the named topic's columns as its records give them. A topic in the list is a button that
 * names it; "Declare these columns" writes the inferred columns (the form's `columns` field).
 */
import { useState } from 'react';
import type { KafkaTopicsReport } from '../../../engine/host/common/api.ts';
import type { KafkaTestFieldDescriptor } from '../../../engine/nodes/fields.ts';
import { host } from '../host.ts';
import { editConfig } from './edit.ts';
import type { FieldContext } from './fieldBinding.ts';

function text(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export function KafkaTestConnection({ field, node, config }: FieldContext<KafkaTestFieldDescriptor>) {
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<KafkaTopicsReport | null>(null);
  const bootstrap = text(config.bootstrap);
  const topic = text(config.topic);
  const test = (name = topic) => {
    setBusy(true);
    host()
      .testKafka({ bootstrap, ...(name ? { topic: name } : {}) })
      .then(setReport, (e: unknown) => setReport({ ok: false, message: String((e as Error)?.message ?? e) }))
      .finally(() => setBusy(false));
  };
  const pick = (name: string) => {
    editConfig(node.id, ['topic'], name);
    test(name);
  };
  const id = field.testId;
  const columns = report?.columns ?? [];
  return (
    <div className="field">
      <button type="button" className="btn" data-testid={id} disabled={busy || !bootstrap} onClick={() => test()}>
        {busy ? 'Connecting…' : 'Test connection'}
      </button>
      {report && !report.ok && (
        <p className="field-error" data-testid={`${id}-error`}>
          {report.message}
        </p>
      )}
      {report?.topics && (
        <ul className="note" data-testid={`${id}-topics`}>
          {report.topics.map((t) => (
            <li key={t.topic}>
              <button
                type="button"
                className="btn btn--ghost"
                onClick={() => pick(t.topic)}
                aria-label={`Read topic ${t.topic}`}
              >
                {t.topic}
              </button>{' '}
              <span className="dim">
                {t.partitions} partition{t.partitions === 1 ? '' : 's'}
              </span>
            </li>
          ))}
        </ul>
      )}
      {report?.ok && report.message && <p className="note dim">{report.message}</p>}
      {report?.ok && columns.length > 0 && (
        <p className="note" data-testid={`${id}-columns`}>
          {columns.map((c) => `${c.name} ${c.type}`).join(', ')}{' '}
          <button
            type="button"
            className="btn btn--ghost"
            onClick={() => editConfig(node.id, ['columns'], Object.fromEntries(columns.map((c) => [c.name, c.type])))}
          >
            Declare these columns
          </button>
        </p>
      )}
    </div>
  );
}
