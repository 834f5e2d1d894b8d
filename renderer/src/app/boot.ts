/**
 * Start-up: connect to the host, route its events to the stores, open the first document
 * (recovered unsaved work first, then the document this window had open before a reload, then the
 * host's initial path, else an empty pipeline) and keep
 * the host told about the document's title and dirty flag. Returns a disposer.
 */
import type { AppCommand, EngineHost, HostEvent } from '../../../engine/host/common/api.ts';
import { docStore } from '../state.ts';
import { hostInfo } from '../host.ts';
import { isDirty } from '../model/docStore.ts';
import { applyRunEvent } from '../stores/runStore.ts';
import { applyMetricsEvent } from '../stores/metricsStore.ts';
import { applyHistoryEvent } from '../stores/historyStore.ts';
import { applyLiveEvent } from '../stores/liveStore.ts';
import { applyLogEvent } from '../stores/logStore.ts';
import { applyFlinkEvent } from '../flink/flinkStore.ts';
import { followDocument } from '../live/followDocument.ts';
import { isDetachedRun } from '../stores/detachedRuns.ts';
import { run, stop } from '../run/runActions.ts';
import { readAutosave, startAutosave } from '../documents/autosave.ts';
import { readLastOpen, startRememberingOpen } from '../documents/lastOpen.ts';
import { startSourceSampling } from '../model/sampledColumns.ts';
import { asJobDocument, newDocument, openDocument, openPath, save, saveAs } from '../documents/actions.ts';
import { notify, openDialog, uiStore } from '../ui/uiStore.ts';
import type { HostConnection } from '../../../engine/host/browser/ws-client.ts';

function runCommand(c: AppCommand): void {
  const s = docStore.getState();
  switch (c) {
    case 'new':
      newDocument();
      break;
    case 'open':
      void openDocument();
      break;
    case 'save':
      void save();
      break;
    case 'save-as':
      void saveAs();
      break;
    case 'undo':
      s.undo();
      break;
    case 'redo':
      s.redo();
      break;
    case 'run':
      void run();
      break;
    case 'stop':
      void stop();
      break;
    case 'export':
      openDialog('export');
      break;
    case 'import-flink-sql':
      openDialog('import-flink-sql');
      break;
  }
}

export async function boot(h: EngineHost): Promise<() => void> {
  const unsubEvents = h.onEvent((ev: HostEvent) => {
    if (ev.type === 'app.command') runCommand(ev.command);
    else if (ev.type === 'flink.run') applyFlinkEvent(ev);
    else if (isDetachedRun(ev.runId))
      return; // a run of another document (followDocument.ts)
    else if (ev.type === 'metrics') {
      applyMetricsEvent(ev);
      applyHistoryEvent(ev);
    } else {
      applyRunEvent(ev);
      applyLiveEvent(ev);
      applyLogEvent(ev);
    }
  });

  // The WebSocket client reconnects by itself; say so while it does (calls wait meanwhile).
  const conn = h as Partial<HostConnection>;
  const unsubConn =
    typeof conn.onConnectionChange === 'function'
      ? conn.onConnectionChange((state) => uiStore.setState({ connection: state }))
      : () => {};

  const recovered = readAutosave();
  const initial = hostInfo()?.initialPath ?? null;
  if (recovered) {
    docStore.getState().load(asJobDocument(recovered.job, 'recovered work'), recovered.path, { dirty: true });
    notify(
      `Recovered unsaved changes to ${recovered.job.name || 'untitled'} from ${new Date(recovered.time).toLocaleTimeString()}`,
    );
  } else {
    // A reload reopens the document this window had open; a new session opens the host's choice.
    const last = readLastOpen();
    if (typeof last === 'string') await openPath(last);
    else if (last === undefined && initial) await openPath(initial);
  }
  const unsubOpen = startRememberingOpen(docStore);
  const unsubSampling = startSourceSampling(docStore, () => h);

  // A reload while the job runs: pick the run up again, and again whenever its document is reopened.
  const unsubFollow = followDocument(h);
  const unsubAutosave = startAutosave(docStore);
  let last = '';
  const unsubTitle = docStore.subscribe((s) => {
    const state = { title: s.job.name || 'untitled', dirty: isDirty(s), path: s.path };
    const key = JSON.stringify(state);
    if (key === last) return;
    last = key;
    document.title = `${state.dirty ? '● ' : ''}${state.title} — Weir`;
    h.setDocumentState(state).catch(() => {
      /* the shell may not care; the title above is enough */
    });
  });
  return () => {
    unsubEvents();
    unsubConn();
    unsubAutosave();
    unsubTitle();
    unsubOpen();
    unsubSampling();
    unsubFollow();
  };
}
