/** Run on Flink through the host: settings (kept by the host), start and stop. */
import type { FlinkSettings } from '../../../engine/host/common/api.ts';
import { host } from '../host.ts';
import { docStore } from '../state.ts';
import { notify, uiStore } from '../ui/uiStore.ts';
import { setTab } from '../stores/liveStore.ts';
import { flinkStore } from './flinkStore.ts';

function message(e: unknown): string {
  return e && typeof e === 'object' && 'message' in e ? String(e.message) : String(e);
}

/** Opens the Run on Flink dialog on the settings the host keeps. */
export async function openFlinkDialog(): Promise<void> {
  flinkStore.setState({ dialogOpen: true });
  try {
    const { flink } = await host().getSettings({});
    flinkStore.setState({ settings: flink });
  } catch {
    /* the defaults stand */
  }
}

export function closeFlinkDialog(): void {
  flinkStore.setState({ dialogOpen: false });
}

/** The live panel's Flink tab shows the run from its start. */
function showFlinkTab(): void {
  setTab('flink');
}

/** Keeps `settings` (the host remembers them) and runs the open document on Flink with them. */
export async function runOnFlink(settings: FlinkSettings): Promise<void> {
  const { job, path, problems } = docStore.getState();
  const errors = problems.all.filter((p) => p.severity !== 'warning').length;
  closeFlinkDialog();
  if (errors > 0) {
    uiStore.setState({ problemsOpen: true });
    notify(`Not run on Flink: ${errors} problem${errors === 1 ? '' : 's'} to fix first (listed below)`, 'error');
    return;
  }
  flinkStore.setState({ settings, starting: true, run: null, refusal: null });
  showFlinkTab();
  try {
    await host()
      .setSettings({ flink: settings })
      .catch(() => undefined);
    const target =
      settings.target === 'gateway'
        ? { kind: 'gateway' as const, url: settings.gatewayUrl }
        : { kind: 'local' as const };
    const snap = await host().flinkRun({
      job,
      ...(path ? { path } : {}),
      target,
      flinkVersion: settings.flinkVersion,
      parallelism: settings.parallelism,
    });
    // Events of this run may have arrived first: keep the newer snapshot.
    const current = flinkStore.getState().run;
    flinkStore.setState({ starting: false, run: current?.flinkRunId === snap.flinkRunId ? current : snap });
  } catch (e) {
    flinkStore.setState({ starting: false, refusal: message(e) });
    notify(`Could not run on Flink: ${message(e)}`, 'error');
  }
}

export async function stopFlink(savepoint: boolean): Promise<void> {
  const run = flinkStore.getState().run;
  if (!run || run.phase === 'ended') return;
  try {
    const r = await host().flinkStop({ flinkRunId: run.flinkRunId, savepoint });
    if (r.savepoint) notify(`Flink savepoint written: ${r.savepoint}`);
  } catch (e) {
    notify(`Could not stop the Flink job: ${message(e)}`, 'error');
  }
}
