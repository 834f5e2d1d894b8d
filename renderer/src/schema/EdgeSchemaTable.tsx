/** The selected connection's columns and types in the inspector (the popover's table, at rest). */
import { useEdgeSchema } from './useSchemas.ts';
import { SchemaColumns, SchemaKind } from './SchemaColumns.tsx';

export function EdgeSchemaTable({ edgeKey }: { edgeKey: string }) {
  const schema = useEdgeSchema(edgeKey)?.schema;
  if (!schema) return null;
  return (
    <section className="input-schema" aria-label="Columns on this connection">
      <div className="input-schema__head">
        <span>Columns</span>
        <SchemaKind schema={schema} />
      </div>
      <SchemaColumns schema={schema} label="Columns on this connection" testId="edge-form-columns" />
    </section>
  );
}
