/**
 * Says, over the canvas, that it no longer matches the running job and that the edits wait for
 * the next run (the engine never rewires a running job). Canvas nodes carry their own mark.
 */
import { describeDrift } from '../model/drift.ts';
import { useDrift } from '../run/useDrift.ts';

export function DriftBanner() {
  const d = useDrift();
  if (!d.any) return null;
  return (
    <div
      className="drift-banner"
      role="status"
      data-testid="drift"
      data-nodes={d.nodes.size}
      data-removed={d.removed.length}
    >
      <b>Not in the running job:</b> {describeDrift(d)}. The job keeps running as it started; these edits apply at the
      next run.
    </div>
  );
}
