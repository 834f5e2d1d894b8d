/**
 * The inspector's list of the columns arriving at the selected node, with their types: one table
 * per incoming connection (a join's left and right inputs apart). Re-typed when the document or a
 * source's sampled columns change; nothing is shown for a node without inputs.
 */
import { useInputSchemas, useNodeNames } from './useSchemas.ts';
import { SchemaColumns, SchemaKind } from './SchemaColumns.tsx';

export function InputSchemas({ nodeId }: { nodeId: string }) {
  const inputs = useInputSchemas(nodeId);
  const names = useNodeNames(inputs.map((i) => i.edge.from));
  if (inputs.length === 0) return null;
  return (
    <section className="input-schema" aria-label="Input columns" data-testid="input-schema">
      {inputs.map(({ edge, schema }, i) => {
        const from = `${names[i]}${edge.fromPort && edge.fromPort !== 'out' ? ` (${edge.fromPort})` : ''}`;
        const title = `${inputs.length > 1 && edge.toPort ? `${edge.toPort}: ` : ''}from ${from}`;
        return (
          <div key={i} className={i > 0 ? 'input-schema__port' : undefined}>
            <div className="input-schema__head">
              <span>{i === 0 ? 'Input columns' : ''}</span>
              <SchemaKind schema={schema} />
            </div>
            <div className="input-schema__from">{title}</div>
            <SchemaColumns
              schema={schema}
              label={`Input columns ${title}`}
              testId={edge.toPort ? `input-schema-${edge.toPort}` : 'input-schema-columns'}
            />
          </div>
        );
      })}
    </section>
  );
}
