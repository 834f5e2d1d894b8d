/**
 * The host API's wire protocol, shared by all transports (in-memory, WebSocket, Electron IPC):
 * the message envelopes and the functions that validate what crosses (the per-method schemas are
 * in schemas.ts). Browser-safe.
 *
 * Messages (plain JSON text; one per WebSocket frame, one per IPC message):
 *   client -> server  { kind: 'call', id, method, params }
 *   server -> client  { kind: 'result', id, result }
 *                     { kind: 'error', id, error: { code, message, problems? } }   (id null: unparseable call)
 *                     { kind: 'events', events: HostEvent[] }
 *
 * Invariants:
 * - Every call gets exactly one `result` or `error` with its id; ids are chosen by the client.
 * - A call whose envelope or params fail their schema is answered with `invalid_request` naming
 *   the offending field (`params.runId: expected string`); the host method is never invoked.
 * - Results and events are validated again on the page side (`createRpcClient`), whatever the
 *   transport: a host that drifted from the contract fails loudly.
 * - Jobs cross as plain objects and are validated by the host (`invalid_job` with problems), so
 *   the designer sees the same problem list as `weir validate`.
 * - Events of one run arrive in the order the host emitted them (metrics are coalesced by the
 *   host's throttle, never reordered across status or checkpoint events).
 */
import { z } from 'zod';
import type { HostEvent, HostMethod, MethodParams, MethodResult } from './api.ts';
import { hostErrorSchema, hostEventSchema, requestSchemas, resultSchemas } from './schemas.ts';

export const HOST_METHODS = Object.keys(requestSchemas) as HostMethod[];

export function isHostMethod(name: unknown): name is HostMethod {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(requestSchemas, name);
}

// ---- envelopes ------------------------------------------------------------------------------

const callMessageSchema = z.strictObject({
  kind: z.literal('call'),
  id: z.number().int().nonnegative(),
  /** Checked against the method list below, so a wrong one reads `unknown method`. */
  method: z.unknown(),
  params: z.unknown(),
});
export type CallMessage = { kind: 'call'; id: number; method: HostMethod; params: unknown };

/** Events are checked one by one (parseEvent), so one bad event does not drop its batch. */
const serverMessageSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('result'), id: z.number(), result: z.unknown() }),
  z.object({ kind: z.literal('error'), id: z.number().nullable(), error: hostErrorSchema }),
  z.object({ kind: z.literal('events'), events: z.array(z.unknown()) }),
]);
export type ServerMessage = z.output<typeof serverMessageSchema>;

/** `params.runId: expected string, received number` - the first few issues, each with its path. */
export function describeIssues(error: z.ZodError, prefix: string): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const where = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

function parsed<T>(r: z.ZodSafeParseResult<T>, prefix: string): Parsed<T> {
  return r.success ? { ok: true, value: r.data } : { ok: false, message: describeIssues(r.error, prefix) };
}

export function parseParams<M extends HostMethod>(method: M, params: unknown): Parsed<MethodParams<M>> {
  return parsed(requestSchemas[method].safeParse(params ?? {}) as z.ZodSafeParseResult<MethodParams<M>>, 'params');
}

export function parseResult<M extends HostMethod>(method: M, result: unknown): Parsed<MethodResult<M>> {
  return parsed(resultSchemas[method].safeParse(result) as z.ZodSafeParseResult<MethodResult<M>>, `${method} result`);
}

export function parseEvent(event: unknown): Parsed<HostEvent> {
  return parsed(hostEventSchema.safeParse(event), 'event');
}

export function parseCall(raw: unknown): Parsed<CallMessage> {
  const r = callMessageSchema.safeParse(raw);
  if (!r.success) return { ok: false, message: describeIssues(r.error, 'message') };
  const { id, method, params } = r.data;
  if (!isHostMethod(method))
    return { ok: false, message: `message.method: unknown method '${String(method).slice(0, 60)}'` };
  return { ok: true, value: { kind: 'call', id, method, params } };
}

export function parseServerMessage(raw: unknown): Parsed<ServerMessage> {
  return parsed(serverMessageSchema.safeParse(raw), 'message');
}
