/**
 * Edge samples a run has switched on (node output ports whose newest records the UI previews).
 * Kept by the job master so every new task process of a restart gets them again.
 */
import type { NormalizedJob } from '../../graph/types.ts';
import type { OutputPort } from '../../contracts/operator.ts';
import { outputPorts } from '../../graph/ports.ts';
import { SampleEdgeError } from './errors.ts';

export interface EdgeSample {
  nodeId: string;
  port: OutputPort;
}

export class EdgeSamples {
  private readonly on = new Map<string, EdgeSample>();

  constructor(private readonly job: NormalizedJob) {}

  /** Records the switch; throws SampleEdgeError when the job has no such node output. */
  set(sample: EdgeSample, on: boolean): void {
    const { nodeId, port } = sample;
    const node = this.job.nodes.find((n) => n.id === nodeId);
    if (!node) throw new SampleEdgeError(`no node '${nodeId}' in job '${this.job.name}'`);
    const ports = outputPorts(node.type);
    if (!ports.includes(port)) {
      const has = ports.length ? `outputs ${ports.map((x) => `'${x}'`).join(', ')}` : 'no outputs';
      throw new SampleEdgeError(`node '${nodeId}' (${node.type}) has ${has}, not '${port}'`);
    }
    const key = `${nodeId}\0${port}`;
    if (on) this.on.set(key, { nodeId, port });
    else this.on.delete(key);
  }

  active(): EdgeSample[] {
    return [...this.on.values()];
  }
}
