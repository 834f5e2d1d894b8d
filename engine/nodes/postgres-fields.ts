/** The connection fields the PostgreSQL source and sink share: URL, password variable, table. */
import type { FieldDescriptor } from './fields.ts';

export function endpointFields<C>(tableHelp: string): FieldDescriptor<C>[] {
  return [
    { kind: 'text', path: 'url', label: 'URL', help: 'postgresql://user@host:5432/db (no password here)', empty: '' },
    {
      kind: 'text',
      path: 'passwordEnv',
      label: 'Password variable',
      placeholder: 'WEIR_PGPASSWORD',
      // weir serve and the app read only WEIR_* variables or those allowed with --allow-env.
      help: 'Environment variable holding the password, read when the job runs (WEIR_*, or allowed with --allow-env)',
    },
    { kind: 'text', path: 'table', label: 'Table', help: tableHelp, empty: '' },
  ];
}
