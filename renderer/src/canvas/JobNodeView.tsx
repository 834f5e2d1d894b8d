/**
 * A job node on the canvas: type icon, name, one-line config summary and, when the validator
 * reports problems, a red outline with the first message. Declared once at module scope and
 * memoized (a new component per render would remount every node).
 */
import { memo, type CSSProperties } from 'react';
import { Handle, Position, type NodeProps, type Node } from '@xyflow/react';
import type { JobEdge, JobNode, JobProblem } from '../../../engine/graph/types.ts';
import { nodeOutputs, typeInfo, type OutputPort } from '../model/catalog.ts';
import { summarize } from '../model/summary.ts';
import { nodeProblemText } from '../model/problemText.ts';
import { TypeIcon } from './icons.tsx';
import { InputHandles } from './InputHandles.tsx';
import { NodeLiveBadge } from '../live/NodeLiveBadge.tsx';
import { PreviewBadge } from '../debug/PreviewBadge.tsx';
import { useNodeDrift } from '../run/useDrift.ts';
import { useDoc } from '../state.ts';
import { nodeColor } from '../model/nodeColors.ts';

export interface JobNodeData extends Record<string, unknown> {
  /** The document's node: the single source of truth (no copies, no metrics). */
  node: JobNode;
  problems: JobProblem[] | undefined;
}

export type JobFlowNode = Node<JobNodeData, 'job'>;

const PORT_TITLES: Record<OutputPort, string> = {
  out: 'output',
  late: 'late: records that arrive after the watermark passed their window (plus allowed lateness)',
  bad: 'bad: dead letters, one per record that does not parse (file, line, reason, text); to a sink only',
  person: 'person: Nexmark persons (id, name, emailAddress, creditCard, city, state, dateTime, extra)',
  auction:
    'auction: Nexmark auctions (id, itemName, description, initialBid, reserve, dateTime, expires, seller, category, extra)',
  bid: 'bid: Nexmark bids (auction, bidder, price, channel, url, dateTime, extra)',
};

/**
 * The nodes whose `bad` port is wired, once per edge list: every node's selector runs on every
 * document change (each step of a drag), and scanning the 250 edges there for each of 200 nodes
 * was most of the drag's selector time.
 */
let badWired: { edges: readonly JobEdge[]; from: ReadonlySet<string> } | null = null;
function nodesWithBadWired(edges: readonly JobEdge[]): ReadonlySet<string> {
  if (badWired?.edges !== edges)
    badWired = { edges, from: new Set(edges.filter((e) => e.fromPort === 'bad').map((e) => e.from)) };
  return badWired.from;
}

function JobNodeViewImpl({ data, selected }: NodeProps<JobFlowNode>) {
  const { node, problems } = data;
  const info = typeInfo(node.type);
  const summary = summarize(node);
  // A boolean selector: other edges changing do not re-render this node.
  const wiredBad = useDoc((s) => nodesWithBadWired(s.job.edges).has(node.id));
  const outputs = nodeOutputs(node, wiredBad);
  const hasProblem = !!problems && problems.length > 0;
  const hasError = hasProblem && problems.some((p) => p.severity !== 'warning');
  // Errors first: the one message shown on the node is the one that blocks a run.
  const first = hasProblem ? (problems.find((p) => p.severity !== 'warning') ?? problems[0]) : null;
  const level = hasError ? ' has-problem' : hasProblem ? ' has-warning' : '';
  const drift = useNodeDrift(node.id);
  // The node's own shade of its group colour, the one its metrics wear in the live charts.
  const color = useDoc((s) => nodeColor(s.job.nodes, node));
  const cls = `wnode wnode--${info.group.toLowerCase()}${selected ? ' is-selected' : ''}${level}${drift ? ' is-drifted' : ''}`;
  return (
    <div
      className={cls}
      style={{ '--c': color } as CSSProperties}
      data-testid={`node-${node.id}`}
      data-color={color}
      data-node-type={node.type}
      title={`${info.label}: ${hasProblem ? problems.map((p) => p.message).join('\n') : summary}`}
    >
      {info.hasInput && <InputHandles nodeId={node.id} type={node.type} multiInput={info.multiInput} />}
      {drift && (
        <div
          className="wnode__drift"
          data-testid={`drift-${node.id}`}
          data-drift={drift}
          title="The running job does not have this edit: it applies at the next run"
        >
          {drift === 'added' ? 'new · next run' : 'edited · next run'}
        </div>
      )}
      <div className="wnode__head">
        <span className="wnode__icon">
          <TypeIcon type={node.type} />
        </span>
        <span className="wnode__name">{node.name || node.id}</span>
        {typeof (node as { parallelism?: number }).parallelism === 'number' && (
          <span className="wnode__par" title="parallelism">
            ×{(node as { parallelism?: number }).parallelism}
          </span>
        )}
      </div>
      <div className="wnode__summary" data-testid={`summary-${node.id}`}>
        <span className="wnode__summary-text">{summary}</span>
      </div>
      {hasProblem && (
        <div
          className={`wnode__problem${hasError ? '' : ' wnode__problem--warning'}`}
          data-testid={`problem-${node.id}`}
          data-severity={hasError ? 'error' : 'warning'}
        >
          <span className="wnode__problem-text">
            <span className="wnode__bang">!</span>
            {nodeProblemText(first!.message)}
            {problems.length > 1 ? ` (+${problems.length - 1} more)` : ''}
          </span>
        </div>
      )}
      <NodeLiveBadge nodeId={node.id} hasInput={info.hasInput} hasOutput={outputs.length > 0} />
      <PreviewBadge nodeId={node.id} sink={info.group === 'Sinks'} />
      {outputs.map((port, i) => (
        <Handle
          key={port}
          type="source"
          position={Position.Right}
          id={port}
          className={`whandle whandle--${port}`}
          data-testid={`handle-${node.id}-${port}`}
          title={PORT_TITLES[port]}
          // Two ports at 35% and 70%; a Nexmark source's three spread evenly (25%, 50%, 75%).
          style={{
            top:
              outputs.length === 1
                ? '50%'
                : outputs.length === 2
                  ? `${35 + i * 35}%`
                  : `${((i + 1) * 100) / (outputs.length + 1)}%`,
          }}
        >
          {port !== 'out' && <span className="whandle__label">{port}</span>}
        </Handle>
      ))}
    </div>
  );
}

export const JobNodeView = memo(JobNodeViewImpl);
// Named for React DevTools (and the e2e render counter): the minified build keeps no function names.
JobNodeView.displayName = 'JobNodeView';
