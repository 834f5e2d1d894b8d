/** The designer window: toolbar, palette, canvas, inspector, status bar and overlays. */
import { useEffect, useState, type DragEvent } from 'react';
import { ReactFlowProvider } from '@xyflow/react';
import { Canvas } from '../canvas/Canvas.tsx';
import { useShortcuts } from '../canvas/useShortcuts.ts';
import { Palette } from '../panels/Palette.tsx';
import { Inspector } from '../panels/Inspector.tsx';
import { Toolbar } from '../panels/Toolbar.tsx';
import { StatusBar } from '../panels/StatusBar.tsx';
import { QuickAdd } from '../panels/QuickAdd.tsx';
import { ConnectPicker } from '../panels/ConnectPicker.tsx';
import { DocumentDialogs } from '../panels/DocumentDialogs.tsx';
import { ExamplesDialog } from '../panels/ExamplesDialog.tsx';
import { HelpOverlay } from '../panels/HelpOverlay.tsx';
import { ExportDialog } from '../panels/ExportDialog.tsx';
import { ImportFlinkSqlDialog } from '../panels/ImportFlinkSqlDialog.tsx';
import { FlinkDialog } from '../flink/FlinkDialog.tsx';
import { NonRestoredDialog } from '../run/NonRestoredDialog.tsx';
import { RerunDialog } from '../panels/RerunDialog.tsx';
import { Notices } from '../panels/Notices.tsx';
import { importFile } from '../documents/actions.ts';
import { LivePanel } from '../live/LivePanel.tsx';

function useFileDrop() {
  const [over, setOver] = useState(false);
  const isFiles = (e: DragEvent) => e.dataTransfer.types.includes('Files');
  return {
    over,
    props: {
      onDragOver: (e: DragEvent) => {
        if (isFiles(e)) {
          e.preventDefault();
          setOver(true);
        }
      },
      onDragLeave: (e: DragEvent) => {
        if (e.currentTarget === e.target) setOver(false);
      },
      onDrop: (e: DragEvent) => {
        setOver(false);
        const file = e.dataTransfer.files?.[0];
        if (!file) return;
        e.preventDefault();
        void importFile(file);
      },
    },
  };
}

export function App() {
  useShortcuts();
  const drop = useFileDrop();
  useEffect(() => {
    // A file dropped outside the app area must not make the browser navigate away from work.
    const stop = (e: Event) => e.preventDefault();
    window.addEventListener('dragover', stop);
    window.addEventListener('drop', stop);
    return () => {
      window.removeEventListener('dragover', stop);
      window.removeEventListener('drop', stop);
    };
  }, []);
  return (
    <ReactFlowProvider>
      <div className="app" data-testid="app-ready" {...drop.props}>
        <Toolbar />
        <div className="main">
          <Palette />
          <Canvas />
          <Inspector />
        </div>
        <LivePanel />
        <StatusBar />
        <QuickAdd />
        <ConnectPicker />
        <DocumentDialogs />
        <ExamplesDialog />
        <HelpOverlay />
        <ExportDialog />
        <ImportFlinkSqlDialog />
        <FlinkDialog />
        <NonRestoredDialog />
        <RerunDialog />
        <Notices />
        {drop.over && <div className="dropzone">Drop a weir.job/v1 file to open it</div>}
      </div>
    </ReactFlowProvider>
  );
}
