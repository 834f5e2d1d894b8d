/**
 * A connection's columns as a table: name, Flink SQL type, nullability and time attribute, under a
 * line saying whether the rows are a changelog or append-only. Shared by the canvas's edge popover
 * and the inspector's input list, so both say the same thing the same way.
 */
import './schema.css';
import type { EdgeSchema, SchemaColumn } from '../model/schemas.ts';

const CHANGELOG_TITLE =
  'Changelog: rows are inserts, updates (-U/+U) and deletes (-D), e.g. after an aggregate or an outer join';
const APPEND_TITLE = 'Append-only: every row is an insert';

function nullability(c: SchemaColumn): string {
  return c.nullable ? 'NULL' : 'NOT NULL';
}

export function SchemaKind({ schema }: { schema: EdgeSchema }) {
  return schema.changelog ? (
    <span className="schema__kind schema__kind--changelog" title={CHANGELOG_TITLE} data-testid="schema-kind">
      changelog
    </span>
  ) : (
    <span className="schema__kind" title={APPEND_TITLE} data-testid="schema-kind">
      append-only
    </span>
  );
}

export function SchemaColumns({ schema, label, testId }: { schema: EdgeSchema; label: string; testId: string }) {
  if (schema.columns === null)
    return (
      <p className="schema__unknown" data-testid={testId} data-count={0}>
        Columns unknown before the run: declare the source's columns, or point it at a file that exists.
      </p>
    );
  return (
    <table className="schema" aria-label={label} data-testid={testId} data-count={schema.columns.length}>
      <thead>
        <tr>
          <th scope="col">column</th>
          <th scope="col">type</th>
          <th scope="col">
            <span className="sr-only">nullability and time attribute</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {schema.columns.map((c) => (
          <tr key={c.name} data-column={c.name}>
            <th scope="row" className="schema__name">
              {c.name}
            </th>
            <td className={`schema__type${c.type ? '' : ' is-unknown'}`}>{c.type ?? 'unknown'}</td>
            <td className="schema__flags">
              {nullability(c)}
              {/* A space, so the cell reads "NULL rowtime" (screen readers, copied text). */}
              {c.time && ' '}
              {c.time && (
                <span className="schema__time" title="Event-time attribute (watermarks follow it)">
                  {c.time}
                </span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
