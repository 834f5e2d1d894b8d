/**
 * What the designer knows about each node type: palette group, label, ports and a default config.
 * Plain TypeScript (no React) so the rules are unit-testable and shared by palette, canvas and
 * inspector. Port typing itself (what may connect to what) lives in `connections.ts`.
 */
import type { JobNode, NodeConfigByType, NodeType } from '../../../engine/graph/types.ts';
import { outputPorts, type OutputPort } from '../../../engine/graph/ports.ts';
import { NODE_DEFINITIONS, isNodeType } from '../../../engine/graph/node-types.ts';
import { PALETTE_GROUPS, type PaletteGroup } from '../../../engine/nodes/definition.ts';
import { map as mapNode } from '../../../engine/nodes/map/definition.ts';

export type { OutputPort, PaletteGroup };
export { PALETTE_GROUPS, isNodeType };

export interface NodeTypeInfo<T extends NodeType = NodeType> {
  type: T;
  label: string;
  group: PaletteGroup;
  description: string;
  /** Short id prefix for new nodes (`filter` -> `filter-2`). */
  idPrefix: string;
  /** Sources take no input; every other type has exactly one input handle (`in`). */
  hasInput: boolean;
  /**
   * Outputs every node of this type has: sinks none; windows also emit late records on `late`.
   * Ports that depend on config (a file source's `bad`) come from `nodeOutputs`.
   */
  outputs: readonly OutputPort[];
  /** A union and the sinks merge many streams; every other input accepts exactly one edge. */
  multiInput: boolean;
  defaultConfig: () => NodeConfigByType[T];
}

/** The designer's view of each type, read from its definition (engine/nodes/<type>/definition.ts). */
export const CATALOG = Object.fromEntries(
  NODE_DEFINITIONS.map((d): [NodeType, NodeTypeInfo] => [
    d.type,
    {
      type: d.type,
      label: d.palette.label,
      group: d.palette.group,
      idPrefix: d.palette.idPrefix,
      description: d.palette.description,
      hasInput: d.ports.maxInputs > 0,
      // A file source's `bad` port shows only when dead letters go there (nodeOutputs).
      outputs: d.ports.outputs.filter((p) => p !== 'bad'),
      // Two-input nodes take one edge per named port; a union and the sinks take any number.
      multiInput: d.ports.maxInputs > 1 && !d.ports.inputs,
      defaultConfig: d.palette.newConfig,
    },
  ]),
) as { [T in NodeType]: NodeTypeInfo<T> };

/** Shown for a node whose type this version does not know (a file from elsewhere): never crash. */
const UNKNOWN: NodeTypeInfo = {
  type: mapNode.type,
  label: 'Unknown type',
  group: 'Transforms',
  idPrefix: 'node',
  description: 'A node type this version of Weir does not know; fix or delete it.',
  hasInput: true,
  outputs: ['out'],
  multiInput: true,
  defaultConfig: () => ({ select: '*' }),
};

/**
 * The output handles one node shows: the engine's ports for its type (`ports.ts`), minus a file
 * source's `bad` port unless its `onBadRecord` is `dead-letter` (otherwise nothing leaves there and
 * the validator refuses an edge from it). `wiredBad`: an edge already leaves `bad`; the handle stays
 * so that edge stays drawn (and deletable) while the validator explains what is wrong. A type this
 * version does not know: its catalog entry.
 */
export function nodeOutputs(node: Pick<JobNode, 'type' | 'config'>, wiredBad = false): readonly OutputPort[] {
  if (!isNodeType(node.type)) return UNKNOWN.outputs;
  const deadLetter = (node.config as { onBadRecord?: unknown } | undefined)?.onBadRecord === 'dead-letter';
  return outputPorts(node.type).filter((p) => p !== 'bad' || deadLetter || wiredBad);
}

export function typeInfo(type: NodeType): NodeTypeInfo {
  return isNodeType(type) ? CATALOG[type] : UNKNOWN;
}

/** Palette entries matching a search, grouped in palette order; matches label, type and description. */
export function searchCatalog(query: string): Array<{ group: PaletteGroup; items: NodeTypeInfo[] }> {
  const q = query.trim().toLowerCase();
  const all = Object.values(CATALOG) as NodeTypeInfo[];
  const hits =
    q === ''
      ? all
      : all.filter(
          (i) =>
            i.label.toLowerCase().includes(q) ||
            i.type.includes(q) ||
            i.group.toLowerCase().includes(q) ||
            i.description.toLowerCase().includes(q),
        );
  return PALETTE_GROUPS.map((group) => ({ group, items: hits.filter((i) => i.group === group) })).filter(
    (g) => g.items.length > 0,
  );
}
