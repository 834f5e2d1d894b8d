/**
 * The React Flow canvas. Kept small on purpose: elements come from useFlowElements, gestures from
 * useCanvasHandlers, commands and shortcuts from their own modules.
 */
import { useEffect, useMemo, useRef } from 'react';
import {
  ReactFlow,
  Background,
  BackgroundVariant,
  MiniMap,
  Controls,
  useReactFlow,
  useStore,
  ConnectionLineType,
} from '@xyflow/react';
import { docStore, useDoc } from '../state.ts';
import { pruneMeasured } from './measuredStore.ts';
import { uiStore, useUi } from '../ui/uiStore.ts';
import { NOTE_COLOR, nodeColor } from '../model/nodeColors.ts';
import { JobNodeView } from './JobNodeView.tsx';
import { useFlowEdges, useFlowNodes } from './useFlowElements.ts';
import { useCanvasHandlers } from './useCanvasHandlers.ts';
import { LiveEdge } from '../live/LiveEdge.tsx';
import { DriftBanner } from './DriftBanner.tsx';
import { CanvasOverlays } from '../debug/CanvasOverlays.tsx';
import { bindScreenToFlow, zoomToFit } from './commands.ts';
import { fitGraph } from './fitGraph.ts';
import { GroupView, NoteView } from './AnnotationViews.tsx';
import { useGroupNodes, useNoteNodes } from './useAnnotationElements.ts';
import type { CanvasNode } from './noteChanges.ts';

// Module scope: React Flow warns (and remounts every node) when nodeTypes changes identity.
const nodeTypes = { job: JobNodeView, note: NoteView, wgroup: GroupView };
// Edges draw their own live throughput from the metrics store (never from edge data).
const edgeTypes = { live: LiveEdge };
const GRID: [number, number] = [16, 16];
const MULTI_SELECT_KEYS = ['Shift', 'Meta', 'Control'];
/**
 * Above this many nodes the canvas mounts only the nodes and edges inside the view (React Flow's
 * onlyRenderVisibleElements): every mounted node and edge wrapper re-runs its store selector on each
 * drag step, and Chromium re-layerizes and repaints every edge, so a 200-node job took ~20 ms per
 * step, more than a frame. React Flow still renders every node once, on load, to measure its size
 * and ports, so an edge with one end outside the view is drawn. Smaller jobs (every example has
 * under 10 nodes) keep every node in the page, where Tab order and the e2e tests find them all.
 */
const RENDER_VISIBLE_ONLY_ABOVE = 100;

function minimapColor(n: CanvasNode): string {
  if (n.type === 'note') return NOTE_COLOR;
  if (n.type === 'wgroup') return 'rgba(139,149,163,.18)';
  return nodeColor(docStore.getState().job.nodes, n.data.node);
}

// The hovered edge shows its schema popover (LiveEdge); module scope keeps the props stable.
const onEdgeEnter = (_e: unknown, edge: { id: string }) => uiStore.setState({ hoveredEdge: edge.id });
const onEdgeLeave = () => uiStore.setState({ hoveredEdge: null });

function useFitOnRequest() {
  const rf = useReactFlow();
  const docVersion = useDoc((s) => s.docVersion);
  const fitRequest = useUi((s) => s.fitRequest);
  useEffect(() => {
    uiStore.setState({ connectionHint: null });
    const job = docStore.getState().job;
    pruneMeasured(
      new Set([
        ...job.nodes.map((n) => n.id),
        ...(job.notes ?? []).map((n) => `note:${n.id}`),
        ...(job.groups ?? []).map((g) => `group:${g.id}`),
      ]),
    );
  }, [docVersion]);
  const fittedVersion = useRef(-1);
  useEffect(() => {
    // Nothing to fit on an empty canvas; and React Flow would keep the request until the first node
    // appears, then centre that node instead of leaving it where it was dropped.
    if (docStore.getState().job.nodes.length === 0) return;
    // A document just opened appears fitted at once; a fit asked for on the same document (the
    // drawer opened, the F key) glides there so the eye can follow.
    const duration = fittedVersion.current === docVersion ? 200 : 0;
    fittedVersion.current = docVersion;
    // Wait a frame so freshly loaded nodes are measured before fitting.
    const t = requestAnimationFrame(() => {
      fitGraph(rf, duration);
    });
    return () => cancelAnimationFrame(t);
  }, [rf, docVersion, fitRequest]);
}

/**
 * Live badges keep a readable size when the view is zoomed out to fit a job (at 1280x800 with the
 * live panel open the fit zoom is ~0.67, which made 12.5 px text 8 px): below zoom 0.8 they grow
 * by 0.8/zoom, so they never draw smaller than 10 px. A CSS variable on the canvas, set here, so a
 * zoom re-renders this one component and no node.
 */
function BadgeScale() {
  const zoom = useStore((s) => s.transform[2]);
  useEffect(() => {
    document.querySelector<HTMLElement>('.canvas')?.style.setProperty('--wbadge', String(Math.max(1, 0.8 / zoom)));
  }, [zoom]);
  return null;
}

export function Canvas() {
  const jobNodes = useFlowNodes();
  const groups = useGroupNodes();
  const notes = useNoteNodes();
  // Frames behind the job nodes, notes above them (zIndex too, React Flow sorts by it).
  const nodes = useMemo<CanvasNode[]>(
    () => (groups.length || notes.length ? [...groups, ...jobNodes, ...notes] : jobNodes),
    [groups, jobNodes, notes],
  );
  const edges = useFlowEdges();
  const h = useCanvasHandlers();
  const snap = useUi((s) => s.snapToGrid);
  const minimap = useUi((s) => s.showMinimap);
  const hint = useUi((s) => s.connectionHint);
  const rf = useReactFlow();
  useEffect(() => bindScreenToFlow(rf.screenToFlowPosition), [rf]);
  useFitOnRequest();
  return (
    <div
      className="canvas"
      data-testid="canvas"
      onDragOver={h.onDragOver}
      onDrop={h.onDrop}
      onDoubleClick={h.onDoubleClick}
    >
      <ReactFlow<CanvasNode>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodesChange={h.onNodesChange}
        onEdgesChange={h.onEdgesChange}
        onEdgeMouseEnter={onEdgeEnter}
        onEdgeMouseLeave={onEdgeLeave}
        onConnect={h.onConnect}
        onConnectEnd={h.onConnectEnd}
        isValidConnection={h.isValidConnection}
        connectionLineType={ConnectionLineType.Bezier}
        snapToGrid={snap}
        snapGrid={GRID}
        deleteKeyCode={null}
        selectionKeyCode="Shift"
        multiSelectionKeyCode={MULTI_SELECT_KEYS}
        zoomOnDoubleClick={false}
        minZoom={0.1}
        maxZoom={2.5}
        proOptions={{ hideAttribution: true }}
        colorMode="dark"
        onlyRenderVisibleElements={nodes.length > RENDER_VISIBLE_ONLY_ABOVE}
      >
        <Background variant={BackgroundVariant.Dots} gap={GRID[0]} size={1.2} color="#2c3442" />
        {minimap && nodes.length > 0 && (
          <MiniMap<CanvasNode>
            pannable
            zoomable
            onClick={(_e, at) => {
              void rf.setCenter(at.x, at.y, { zoom: rf.getZoom(), duration: 200 });
            }}
            style={{ width: 168, height: 110 }}
            nodeColor={minimapColor}
            nodeStrokeWidth={0}
            maskColor="rgba(12,15,20,0.7)"
          />
        )}
        {/* Its fit button fits as Fit does (clear of the minimap, readable): React Flow's fit, then ours. */}
        <Controls showInteractive={false} onFitView={zoomToFit} />
        <BadgeScale />
      </ReactFlow>
      <DriftBanner />
      <CanvasOverlays />
      {hint && (
        <div className="connection-hint" role="status" data-testid="connection-hint">
          Cannot connect: {hint}
        </div>
      )}
      {jobNodes.length === 0 && notes.length === 0 && (
        <div className="canvas__empty" data-testid="canvas-empty">
          <div className="canvas__empty-title">Start a pipeline</div>
          <div>Drag a source from the palette, or double-click here to search.</div>
          <div>
            Open an example from <b>Examples</b>, or drop a <code>.weir.json</code> file on the window.
          </div>
        </div>
      )}
    </div>
  );
}
