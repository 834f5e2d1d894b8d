/** The run's uptime, ticking once a second while the run is active (its own tiny component). */
import { useEffect, useState } from 'react';
import { ACTIVE, useRun } from '../stores/runStore.ts';
import { clock } from './format.ts';

export function Uptime() {
  const startedAt = useRun((s) => s.startedAt);
  const status = useRun((s) => s.status);
  const active = ACTIVE.has(status);
  const [now, setNow] = useState(() => Date.now());
  const [endedAt, setEndedAt] = useState<number | null>(null);
  useEffect(() => {
    if (!active) {
      setEndedAt((e) => e ?? Date.now());
      return;
    }
    setEndedAt(null);
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [active]);
  if (!startedAt || status === 'starting') return null;
  const end = active ? now : (endedAt ?? now);
  return (
    <span className="runbar__uptime" data-testid="uptime" title={`Started ${new Date(startedAt).toLocaleTimeString()}`}>
      {clock(end - startedAt)}
    </span>
  );
}
