/** The ports a node type declares (its definition's `ports`); the rules are in engine/graph/ports.ts. */

/** Output ports: `out`, `late` (windows), `bad` (dead letters), or a Nexmark source's three. */
export type OutputPort = 'out' | 'late' | 'bad' | 'person' | 'auction' | 'bid';
/** Named input ports of two-input nodes. */
export type InputPort = 'left' | 'right';

export interface PortSpec {
  /** Output ports; empty for sinks. */
  outputs: readonly OutputPort[];
  /** Allowed number of incoming edges. */
  minInputs: number;
  maxInputs: number;
  /** Named input ports (two-input nodes); absent = one anonymous input. */
  inputs?: readonly InputPort[];
}
