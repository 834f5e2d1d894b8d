/**
 * The inspector: the selected node's form, or the job settings when nothing is selected.
 * Subscribes to the one selected node, so edits elsewhere do not re-render it.
 */
import { useEffect, useRef } from 'react';
import type { JobEdge, JobNode } from '../../../engine/graph/types.ts';
import { useDoc, useDocShallow } from '../state.ts';
import { nodeDefinition } from '../../../engine/graph/node-types.ts';
import { isNodeType, typeInfo } from '../model/catalog.ts';
import { inputColumns } from '../model/columns.ts';
import { useSampled } from '../model/sampledColumns.ts';
import { TypeIcon } from '../canvas/icons.tsx';
import { NumberField, TextField } from '../fields/fields.tsx';
import { SettingsForm } from './SettingsForm.tsx';
import { edgeOfKey } from '../model/docStore.ts';
import { deleteSelection } from '../canvas/commands.ts';
import { editNodeField, messageAt, nodeIndex } from './edit.ts';
import { NodeForm } from './NodeForm.tsx';
import { InputSchemas } from '../schema/InputSchemas.tsx';
import { EdgeSchemaTable } from '../schema/EdgeSchemaTable.tsx';

/** The node minus its position: dragging the selected node must not re-render its form per frame. */
function useNodeIgnoringPosition(id: string): JobNode | undefined {
  const last = useRef<JobNode | undefined>(undefined);
  return useDoc((s) => {
    const n = s.job.nodes.find((x) => x.id === id);
    const p = last.current;
    if (
      p &&
      n &&
      p.config === n.config &&
      p.name === n.name &&
      p.type === n.type &&
      (p as { parallelism?: number }).parallelism === (n as { parallelism?: number }).parallelism
    )
      return p;
    last.current = n;
    return n;
  });
}

function NodeInspector({ id }: { id: string }) {
  const node = useNodeIgnoringPosition(id);
  const index = useDoc((s) => nodeIndex(s.job, id));
  const problems = useDoc((s) => s.problems.byNode.get(id));
  // A shallow-compared selector: moving nodes changes the job but not the columns, so dragging
  // does not re-render the form on every frame.
  // Re-read when a source's sampled columns arrive (they live outside the document).
  useSampled((s) => s.byNode);
  const columns = useDocShallow((s) => inputColumns(s.job, id, undefined, s.path));
  if (!node) return null;
  // A hand-written file may lack a config; the forms read fields of it.
  const safe = (node.config && typeof node.config === 'object' ? node : { ...node, config: {} }) as JobNode;
  const info = typeInfo(node.type);
  const base = `nodes[${index}]`;
  const err = (p: string) => messageAt(problems, `${base}.config.${p}`);
  const nodeLevel = problems?.filter((p) => !p.path.startsWith(`${base}.config.`)) ?? [];
  return (
    <div className="inspector__body" data-testid="node-form" data-node-id={id}>
      <div className="inspector__head">
        <span className={`inspector__icon inspector__icon--${info.group.toLowerCase()}`}>
          <TypeIcon type={node.type} size={18} />
        </span>
        <div>
          <div className="inspector__title">{info.label}</div>
          <div className="inspector__sub">{info.description}</div>
        </div>
      </div>
      {nodeLevel.length > 0 && (
        <ul className="inspector__problems" data-testid="node-problems">
          {nodeLevel.map((p, i) => (
            <li key={i} className={p.severity === 'warning' ? 'is-warning' : ''}>
              {p.message}
            </li>
          ))}
        </ul>
      )}
      <TextField
        label="Name"
        value={node.name}
        testId="f-name"
        placeholder={node.id}
        hint={
          <>
            id <code>{node.id}</code>
          </>
        }
        onChange={(v) => editNodeField(id, 'name', v)}
      />
      {isNodeType(node.type) ? (
        <NodeForm node={safe} fields={nodeDefinition(node.type).fields} columns={columns} err={err} />
      ) : (
        <p className="note">
          Unknown node type <code>{String(node.type)}</code>: delete this node or fix the file.
        </p>
      )}
      <NumberField
        label="Parallelism"
        value={(node as { parallelism?: number }).parallelism}
        integer
        min={1}
        testId="f-parallelism"
        placeholder="job default"
        error={messageAt(problems, `${base}.parallelism`)}
        onChange={(v) => editNodeField(id, 'parallelism', v)}
      />
      <InputSchemas nodeId={id} />
    </div>
  );
}

const EDGE_NOTES: Record<NonNullable<JobEdge['fromPort']>, string> = {
  out: 'Carries every record and watermark from the upstream output. Barriers for each checkpoint travel along it too.',
  late: 'Carries the records that arrived after the watermark passed the end of their window plus the allowed lateness.',
  bad: 'Carries dead letters: one record (file, line, reason, text) per input line that does not parse. Committed exactly once like any other output.',
  person: 'Carries the Nexmark persons (1 in 50 events) and the source watermark.',
  auction: 'Carries the Nexmark auctions (3 in 50 events) and the source watermark.',
  bid: 'Carries the Nexmark bids (46 in 50 events) and the source watermark.',
};

function EdgeInspector({ edgeKey }: { edgeKey: string }) {
  const edge = useDoc((s) => edgeOfKey(s.job, edgeKey));
  const names = useDocShallow((s) =>
    [edge?.from, edge?.to].map((id) => s.job.nodes.find((n) => n.id === id)?.name ?? id),
  );
  if (!edge) return null;
  const port = edge.fromPort ?? 'out';
  return (
    <div className="inspector__body" data-testid="edge-form">
      <div className="inspector__head">
        <div>
          <div className="inspector__title">Connection</div>
          <div className="inspector__sub">
            {names[0]} → {names[1]}
          </div>
        </div>
      </div>
      <p className="note">{EDGE_NOTES[port]}</p>
      <EdgeSchemaTable edgeKey={edgeKey} />
      <button type="button" className="btn" onClick={deleteSelection}>
        Delete connection
      </button>
    </div>
  );
}

export function Inspector() {
  const selected = useDoc((s) => s.selectedNodes);
  const selectedEdges = useDoc((s) => s.selectedEdges);
  const count = selected.size;
  const only = count === 1 ? [...selected][0] : null;
  const onlyEdge = count === 0 && selectedEdges.size === 1 ? [...selectedEdges][0] : null;
  // A new or opened document starts at the top of its settings, not where the last one was scrolled.
  const docVersion = useDoc((s) => s.docVersion);
  const box = useRef<HTMLElement>(null);
  useEffect(() => {
    box.current?.scrollTo({ top: 0 });
  }, [docVersion]);
  return (
    <aside className="inspector" data-testid="inspector" ref={box}>
      {only ? (
        <NodeInspector key={only} id={only} />
      ) : count > 1 ? (
        <div className="inspector__body">
          <div className="inspector__head">
            <div className="inspector__title">{count} nodes selected</div>
          </div>
          <p className="note">
            Move them together, duplicate (Ctrl+D), copy (Ctrl+C) or delete (Del). Select one node to edit it.
          </p>
        </div>
      ) : onlyEdge ? (
        <EdgeInspector key={onlyEdge} edgeKey={onlyEdge} />
      ) : (
        <SettingsForm />
      )}
    </aside>
  );
}
