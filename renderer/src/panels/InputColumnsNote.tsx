/**
 * The columns arriving at a sink, listed under its form: a sink has no SQL field to complete, so
 * this is where a person sees what will be written (e.g. a dead-letter edge's file, line, reason,
 * text). Unknown columns (an unsampled file) are not listed rather than guessed.
 */
export function InputColumnsNote({ columns }: { columns: readonly string[] }) {
  if (columns.length === 0) return null;
  return (
    <p className="note" data-testid="sink-columns" data-columns={columns.join(',')}>
      Columns in:{' '}
      {columns.map((c, i) => (
        <span key={c}>
          {i > 0 && ', '}
          <code>{c}</code>
        </span>
      ))}
    </p>
  );
}
