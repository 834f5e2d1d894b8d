/**
 * "Allow a folder for this document…": runs are confined to the workspace and the job's own
 * folder; in the app a person may add a folder picked in a native dialog, for this document only
 * (host `grantFolder`). Served mode has no dialogs, so the entry is offered only with
 * `nativeDialogs` and the host's `unsupported` never reaches a person.
 */
import { docStore } from '../state.ts';
import { host, hostInfo } from '../host.ts';
import { notify } from '../ui/uiStore.ts';

export function canGrantFolder(): boolean {
  return hostInfo()?.nativeDialogs === true;
}

/** Asks for a folder; the granted folder's path, or null when cancelled or refused (noticed). */
export async function grantFolderForDocument(): Promise<string | null> {
  const { path } = docStore.getState();
  try {
    const r = await host().grantFolder(path ? { path } : {});
    if (r.folder) notify(`Runs of this document may now read and write in ${r.folder}`, 'info');
    return r.folder;
  } catch (e) {
    notify(
      `Could not allow the folder: ${e && typeof e === 'object' && 'message' in e ? String(e.message) : String(e)}`,
      'error',
    );
    return null;
  }
}

/**
 * After a `forbidden_path` refusal: offer the grant (a native confirm, like the output-exists
 * question) and say whether to run again.
 */
export async function offerFolderGrant(reason: string): Promise<boolean> {
  if (!canGrantFolder() || typeof window === 'undefined' || typeof window.confirm !== 'function') return false;
  const yes = window.confirm(
    `${reason}\n\nOK: allow a folder for this document (choose it next) and run again.\nCancel: do not run.`,
  );
  return yes && (await grantFolderForDocument()) !== null;
}
