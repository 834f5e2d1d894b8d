/**
 * The two Electron IPC channels (preload <-> main). Both carry the host protocol's JSON text
 * (protocol.ts), exactly what the WebSocket carries: the preload only moves strings, the main
 * process serves them with `serveHost` and the page reads them with `createRpcClient`.
 * Zod-free, so the sandboxed preload stays small.
 */

/** page -> main: one `call` message; the invoke answers with its `result`/`error` message. */
export const IPC_CALL_CHANNEL = 'weir:host-call';
/** main -> page: `events` messages. */
export const IPC_EVENT_CHANNEL = 'weir:host-events';
