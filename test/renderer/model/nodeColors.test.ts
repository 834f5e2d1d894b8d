/** One colour per node, shared by the canvas and the live charts: the group's hue, one shade per node. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { JobNode } from '../../../engine/graph/types.ts';
import { nodeColor, nodeColors } from '../../../renderer/src/model/nodeColors.ts';

const node = (id: string, type: string): JobNode => ({ id, type, position: { x: 0, y: 0 }, config: {} }) as JobNode;

describe('node colours', () => {
  const nodes = [
    node('src', 'source.generator'),
    node('f1', 'filter'),
    node('m1', 'map'),
    node('w', 'window'),
    node('out', 'sink.file'),
    node('peek', 'sink.preview'),
  ];

  it("gives each node of a group its own shade, the first the group's colour", () => {
    const c = nodeColors(nodes);
    assert.equal(c.get('src'), '#3fb68b', 'sources: --src');
    assert.equal(c.get('f1'), '#5b8def', 'transforms: --xf');
    assert.equal(c.get('w'), '#c58af9', 'windows: --win');
    assert.equal(c.get('out'), '#f0a04b', 'sinks: --sink');
    assert.equal(new Set(c.values()).size, nodes.length, `all distinct: ${[...c.values()]}`);
  });

  it('is stable for the same node list and falls back to the group colour for a node not in it', () => {
    assert.equal(nodeColors(nodes), nodeColors(nodes), 'cached per list');
    assert.equal(nodeColor(nodes, node('new', 'map')), '#5b8def');
    assert.equal(nodeColor(nodes, nodes[2]), nodeColors(nodes).get('m1'));
  });
});
