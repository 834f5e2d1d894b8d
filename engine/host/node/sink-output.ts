/**
 * `readSinkOutput`: where a sink writes (an absolute folder or `schema.table`) and its committed
 * rows, newest first, one page at a time, for the app's committed-output viewer. A file sink's
 * folder is read only inside the workspace or a folder granted to the document, as every other
 * path; a PostgreSQL sink reads only an environment variable the user allowed.
 */
import type { JobDocument } from '../../graph/types.ts';
import type { MethodResult } from '../common/api.ts';
import { HostError } from '../common/errors.ts';
import { fileSink } from '../../nodes/sink-file/definition.ts';
import { postgresSink } from '../../nodes/sink-postgres/definition.ts';
import { readCommittedFileRows } from '../../connectors/file-sink-committed.ts';
import { PgConfigError } from '../../connectors/postgres/connection.ts';
import { readTableRows } from '../../connectors/postgres/table-rows.ts';
import type { WorkspaceFiles } from './workspace-files.ts';
import { envRefusal, type EnvAllowance } from './env-allowance.ts';

export interface SinkOutputRequest {
  job: JobDocument;
  nodeId: string;
  offset: number;
  limit: number;
  /** The document's folder (relative sink paths resolve there) and the folders granted to it. */
  baseDir: string;
  granted: readonly string[];
}

/** Values as JSON gives them (pg answers Dates, Buffers and bigint strings): the same on every transport. */
const jsonSafe = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

export async function readSinkOutput(
  req: SinkOutputRequest,
  files: WorkspaceFiles,
  allowEnv: EnvAllowance,
): Promise<MethodResult<'readSinkOutput'>> {
  const nodes = Array.isArray(req.job.nodes) ? req.job.nodes : [];
  const node = nodes.find((n) => n?.id === req.nodeId);
  if (!node) throw new HostError('not_found', `no node '${req.nodeId}' in the job`);
  const config = (node.config ?? {}) as Record<string, unknown>;
  const where = `nodes[${nodes.indexOf(node)}].config`;
  if (node.type === fileSink.type) {
    if (typeof config.path !== 'string' || !config.path)
      throw new HostError('invalid_request', `${where}.path: no path set`);
    const dir = await files.resolve(config.path, 'read', { base: req.baseDir, extraRoots: req.granted });
    const format = config.format === 'csv' || config.format === 'changelog-json' ? config.format : 'jsonl';
    const page = readCommittedFileRows(dir, format, req.offset, req.limit);
    return { kind: 'folder', location: dir, offset: req.offset, ...page };
  }
  if (node.type === postgresSink.type) {
    if (typeof config.url !== 'string' || typeof config.table !== 'string')
      throw new HostError('invalid_request', `${where}: url and table must be set`);
    const passwordEnv = typeof config.passwordEnv === 'string' ? config.passwordEnv : undefined;
    const refused = passwordEnv === undefined ? null : envRefusal(passwordEnv, allowEnv);
    if (refused) throw new HostError('invalid_job', `${where}.passwordEnv: ${refused}`);
    try {
      const page = await readTableRows(
        { url: config.url, table: config.table, ...(passwordEnv ? { passwordEnv } : {}) },
        req.offset,
        req.limit,
        where,
      );
      return { kind: 'table', location: page.table, offset: req.offset, total: page.total, rows: jsonSafe(page.rows) };
    } catch (e) {
      if (e instanceof PgConfigError) throw new HostError('io_error', e.message);
      throw e;
    }
  }
  throw new HostError(
    'unsupported',
    `'${req.nodeId}' is a ${String(node.type)} node: only file and PostgreSQL sinks keep committed output`,
  );
}
