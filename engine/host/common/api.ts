/**
 * `EngineHost`: the one typed API between the UI and the engine. Electron serves it over IPC,
 * `weir serve` over a WebSocket, tests over an in-memory transport; all three carry the same
 * plain-JSON messages (`host/protocol.ts`) through the same `serveHost` / `createRpcClient` pair.
 *
 * Every type here is inferred from the zod schemas in schemas.ts (what the transports validate),
 * so the API and its validator cannot drift; read a method's contract at its schema. Every call
 * is async. Failures reject with a `HostError` ({ code, message }), never a stack trace.
 * This module is browser-safe and type-only: the renderer and the preload import it freely.
 */
import type { z } from 'zod';
import type {
  APP_COMMANDS,
  HOST_ERROR_CODES,
  hostErrorSchema,
  hostEventSchema,
  requestSchemas,
  resultSchemas,
} from './schemas.ts';

export type { JobStatus, OperatorMetrics, RunEvent } from '../../contracts/run-events.ts';

type Requests = typeof requestSchemas;
type Results = typeof resultSchemas;

export type HostMethod = keyof Requests;
/** Params and results per method, as the typed API sees them (after validation). */
export type MethodParams<M extends HostMethod> = z.output<Requests[M]>;
export type MethodResult<M extends HostMethod> = z.output<Results[M]>;

export type HostErrorCode = (typeof HOST_ERROR_CODES)[number];
/** The wire shape of a failure: `{ code, message, problems? }`. */
export type HostErrorShape = z.output<typeof hostErrorSchema>;

/** What the UI hears: a run's events tagged with its run id, and the shell's menu commands. */
export type HostEvent = z.output<typeof hostEventSchema>;
/** Commands the shell's menus and accelerators send to the renderer. */
export type AppCommand = (typeof APP_COMMANDS)[number];

export type RunOptions = MethodParams<'run'>;
export type RunInfo = MethodResult<'run'>;
/** What the renderer needs to know about the shell it runs in. */
export type HostInfo = MethodResult<'hostInfo'>;
export type ExportResult = MethodResult<'exportJob'>;
/** A column of a source's data: its name and Flink SQL type (BIGINT, DOUBLE, BOOLEAN, STRING). */
export type SourceColumn = MethodResult<'sampleSource'>['columns'][number];
/** What "Test connection" found: the table's columns and unique keys, or why it failed. */
export type PostgresTableReport = MethodResult<'testPostgres'>;
export type KafkaTopicsReport = MethodResult<'testKafka'>;
export type FileEntry = MethodResult<'listFiles'>[number];
/** A Flink SQL import: the job and what could not become part of it (1-based line and column). */
export type ImportResult = MethodResult<'importFlinkSql'>;
export type ImportProblem = ImportResult['problems'][number];

export type { FlinkRunSnapshot, FlinkSettings, HostSettings } from './flink-schemas.ts';
/** A Flink run's snapshot as a `flink.run` event carries it. */
export type FlinkRunEvent = Extract<HostEvent, { type: 'flink.run' }>;

/** Every method of the API, one per request schema, plus live events. */
export type EngineHost = { [M in keyof Requests]: (req: MethodParams<M>) => Promise<MethodResult<M>> } & {
  /** Live events; returns an unsubscribe function. */
  onEvent(listener: (event: HostEvent) => void): () => void;
};
