/**
 * Overview's "Output" box: where every file and PostgreSQL sink writes (absolute folder or
 * `schema.table`) and how many rows are committed there; a click shows them in the Data tab.
 */
import { useMemo } from 'react';
import { docStore, useDoc } from '../state.ts';
import { setTab } from '../stores/liveStore.ts';
import { useCommittedOutput } from './useCommittedOutput.ts';
import { keepsCommittedOutput } from './committedSink.ts';
import { count } from './format.ts';

function SinkLocation({ id, name }: { id: string; name: string }) {
  const { output, error } = useCommittedOutput(id, 0, 0);
  const show = () => {
    docStore.getState().select([id]);
    setTab('data');
  };
  return (
    <div className="ov-pending" data-testid={`sink-location-${id}`} data-location={output?.location ?? ''}>
      <button type="button" className="linkish" onClick={show}>
        <b>{name}</b>
      </button>
      :{' '}
      {error ? (
        <span className="dim">{error}</span>
      ) : output ? (
        <>
          {count(output.total)} rows committed in <code title={output.location}>{output.location}</code>
        </>
      ) : (
        '…'
      )}
    </div>
  );
}

export function SinkLocations() {
  const nodes = useDoc((s) => s.job.nodes);
  const sinks = useMemo(() => nodes.filter(keepsCommittedOutput), [nodes]);
  if (!sinks.length) return null;
  return (
    <div className="ov-box" data-testid="sink-locations">
      <h4>
        Output <span className="dim">(committed rows, where each sink writes)</span>
      </h4>
      {sinks.map((n) => (
        <SinkLocation key={n.id} id={n.id} name={n.name || n.id} />
      ))}
    </div>
  );
}
