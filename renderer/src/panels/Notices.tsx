import { useUi } from '../ui/uiStore.ts';

export function Notices() {
  const notices = useUi((s) => s.notices);
  return (
    <div className="notices" aria-live="polite">
      {notices.map((n) => (
        <div key={n.id} className={`notice notice--${n.kind}`} data-testid="notice">
          {n.text}
        </div>
      ))}
    </div>
  );
}
