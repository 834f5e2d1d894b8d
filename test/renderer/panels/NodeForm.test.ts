/**
 * The generic inspector form draws every node type's descriptors: each field's input carries the
 * test id derived from its path, `when` hides fields, validator messages land under their field,
 * and an edit writes the field's path (a cleared required field writes its `empty` value).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as React from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { JobNode } from '../../../engine/graph/types.ts';
import type { FieldConfig, FieldDescriptor } from '../../../engine/nodes/fields.ts';
import { NODE_DEFINITIONS, nodeDefinition, type NodeType } from '../../../engine/graph/node-types.ts';
import { bind } from '../../../renderer/src/panels/fieldBinding.ts';
import { docStore } from '../../../renderer/src/state.ts';

// The test runner's loader (tsx) compiles the renderer's .tsx with the classic JSX transform, which
// calls a `React` in scope; Vite's build uses the automatic one. Set it before the form loads.
(globalThis as { React?: typeof React }).React = React;
const { NodeForm } = await import('../../../renderer/src/panels/NodeForm.tsx');

function nodeOf(type: NodeType, config: object): JobNode {
  const node = { id: 'n1', type, name: 'n', position: { x: 0, y: 0 }, config } as unknown as JobNode;
  docStore.setState({ job: { ...docStore.getState().job, nodes: [node], edges: [] } });
  return node;
}

function render(type: NodeType, config: object, err: (path: string) => string | null = () => null): string {
  const node = nodeOf(type, config);
  const fields = nodeDefinition(type).fields as readonly FieldDescriptor[];
  return renderToStaticMarkup(React.createElement(NodeForm, { node, fields, columns: ['ts', 'key'], err }));
}

/** The test ids a shown descriptor must produce. */
function expectedIds(f: FieldDescriptor, config: FieldConfig): string[] {
  switch (f.kind) {
    case 'note':
    case 'inputColumns':
      return [];
    case 'testConnection':
    case 'kafkaTest':
      return [f.testId];
    case 'window':
      return [`f-${f.path}.kind`];
    default:
      return [`f-${f.path}`, ...(f.kind === 'eventTime' && config.eventTime ? [`f-${f.path}.field`] : [])];
  }
}

test('every node type draws each of its fields with the test id of its path', () => {
  for (const d of NODE_DEFINITIONS) {
    for (const extra of [{}, { eventTime: { field: 'ts' } }]) {
      const config = { ...(d.palette.newConfig() as object), ...extra } as FieldConfig;
      const html = render(d.type, config);
      for (const f of d.fields as readonly FieldDescriptor[]) {
        const shown = !f.when || f.when(config);
        for (const id of expectedIds(f, config))
          assert.equal(html.includes(`data-testid="${id}"`), shown, `${d.type}: ${id} ${shown ? 'shown' : 'hidden'}`);
        if (f.kind === 'note' && shown) assert.ok(html.includes(escape(f.text(config))), `${d.type}: note`);
      }
    }
  }
});

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/'/g, '&#x27;').replace(/"/g, '&quot;');
}

test('a field shown only in one mode follows the config (upsert key, outer-join note)', () => {
  const sink = { url: 'postgresql://u@h/db', table: 't' };
  assert.ok(!render('sink.postgres', { ...sink, mode: 'append' }).includes('data-testid="f-key"'));
  assert.ok(render('sink.postgres', { ...sink, mode: 'upsert' }).includes('data-testid="f-key"'));
  const join = { leftKey: 'k', rightKey: 'k', select: 'L.k' };
  assert.ok(!render('join', { ...join, kind: 'inner' }).includes('padded with NULLs'));
  assert.ok(render('join', { ...join, kind: 'left' }).includes('padded with NULLs'));
});

test('a window shows the fields of its kind; an optional one may be absent', () => {
  const agg = { aggregates: 'COUNT(*) AS n' };
  const sliding = render('window', { ...agg, window: { kind: 'sliding', size: '10s', slide: '2s' } });
  assert.ok(sliding.includes('data-testid="f-window.slide"') && !sliding.includes('data-testid="f-window.gap"'));
  const session = render('window', { ...agg, window: { kind: 'session', gap: '3s' } });
  assert.ok(session.includes('data-testid="f-window.gap"') && !session.includes('data-testid="f-window.size"'));
  // A window node without a window shows the one it starts as, so the form never looks empty.
  assert.match(render('window', agg), /data-testid="f-window.size" value="10"/);
  const topn = { partitionBy: 'k', orderBy: 'ts ASC', limit: 1 };
  const running = render('topn', topn);
  assert.ok(running.includes('no: a running top N') && !running.includes('data-testid="f-window.size"'));
  assert.ok(running.includes('deduplication'));
  assert.ok(render('topn', { ...topn, window: { kind: 'tumbling', size: '1s' } }).includes('Window size'));
});

test("the validator's message for a path is shown under that path's field", () => {
  const html = render('window', { aggregates: 'COUNT(*) AS n', window: { kind: 'tumbling', size: 'x' } }, (p) =>
    p === 'window.size' ? 'size must be a duration' : null,
  );
  const size = html.indexOf('data-testid="f-window.size"');
  const message = html.indexOf('size must be a duration');
  assert.ok(size > 0 && message > size && message < html.indexOf('Aggregates'), 'message under the size field');
});

test('an edit writes the path; a cleared field writes its empty value or removes its key', () => {
  const node = nodeOf('source.generator', { count: 5 });
  const config = () => docStore.getState().job.nodes[0].config as Record<string, unknown>;
  bind(node, node.config as FieldConfig, () => null, 'eventTime.field', '').onChange('ts');
  assert.deepEqual(config().eventTime, { field: 'ts' });
  bind(node, config(), () => null, 'eventTime.field', '').onChange(undefined);
  assert.deepEqual(config().eventTime, { field: '' }, 'a required field is kept, empty, for the validator to name');
  bind(node, config(), () => null, 'count').onChange(undefined);
  assert.equal('count' in config(), false, 'an optional field cleared falls back to the default');
  const b = bind(node, config(), (p) => (p === 'count' ? 'bad' : null), 'count');
  assert.equal(b.testId, 'f-count');
  assert.equal(b.error, 'bad');
});
