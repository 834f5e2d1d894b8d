/**
 * The input handles of a node: one `in` handle, or for two-input nodes (the joins) a `left` and a
 * `right` handle, labelled, whose ids become the edge's `toPort`.
 */
import { Handle, Position } from '@xyflow/react';
import { inputPorts } from '../../../engine/graph/ports.ts';
import type { NodeType } from '../../../engine/graph/types.ts';

export function InputHandles({ nodeId, type, multiInput }: { nodeId: string; type: NodeType; multiInput: boolean }) {
  let ports: readonly string[] = [];
  try {
    ports = inputPorts(type);
  } catch {
    ports = [];
  }
  if (ports.length === 0) {
    return (
      <Handle
        type="target"
        position={Position.Left}
        id="in"
        data-testid={`handle-${nodeId}-in`}
        className={`whandle whandle--in${multiInput ? ' whandle--multi' : ''}`}
        title={multiInput ? 'input: accepts many streams' : 'input: one stream'}
      />
    );
  }
  return (
    <>
      {ports.map((port, i) => (
        <Handle
          key={port}
          type="target"
          position={Position.Left}
          id={port}
          data-testid={`handle-${nodeId}-${port}`}
          className={`whandle whandle--in whandle--${port}`}
          title={`${port} input: its columns are ${port === 'left' ? 'L' : 'R'}.x in the select`}
          style={{ top: `${35 + i * 35}%` }}
        >
          <span className="whandle__label whandle__label--in">{port === 'left' ? 'L' : 'R'}</span>
        </Handle>
      ))}
    </>
  );
}
