/**
 * The names of the EngineHost methods, without the schemas: the Electron preload builds
 * `window.weir` from this list and must stay small (no zod). protocol.ts checks at compile time
 * that its schemas cover exactly these. Browser-safe.
 */
import type { HostMethod } from './api.ts';

export const HOST_METHOD_NAMES = [
  'validate',
  'run',
  'stop',
  'triggerSavepoint',
  'killTaskProcess',
  'sampleEdge',
  'listRuns',
  'listCheckpoints',
  'checkpointHistory',
  'exportJob',
  'importFlinkSql',
  'sampleSource',
  'testPostgres',
  'listFiles',
  'readJob',
  'writeJob',
  'listExamples',
  'openExample',
  'hostInfo',
  'setDocumentState',
  'showOpenDialog',
  'showSaveDialog',
  'grantFolder',
] as const satisfies readonly HostMethod[];

// Fails to compile when EngineHost gains a method this list lacks.
type Missing = Exclude<HostMethod, (typeof HOST_METHOD_NAMES)[number]>;
export const _allMethodsListed: Missing extends never ? true : Missing = true;

/** Electron IPC channels (main <-> preload). */
export const IPC_CALL_CHANNEL = 'weir:host-call';
export const IPC_EVENT_CHANNEL = 'weir:host-events';

/** What the IPC call handler answers: plain data, since thrown Errors lose their code over IPC. */
export type IpcReply =
  { ok: true; result: unknown } | { ok: false; error: { code: string; message: string; problems?: unknown[] } };
