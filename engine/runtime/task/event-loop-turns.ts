/**
 * Everything in the task process runs on one event loop, and a busy pipeline resolves promise after
 * promise without ever reaching the I/O phase, which would starve host messages (barrier triggers,
 * notify, close) and timers (metrics). So the loops give the event loop a turn every YIELD_MS.
 */
const YIELD_MS = 10;
let lastYield = Date.now();
export function yieldDue(): boolean {
  return Date.now() - lastYield >= YIELD_MS;
}
export function yieldToEventLoop(): Promise<void> {
  return new Promise<void>((resolve) =>
    setImmediate(() => {
      lastYield = Date.now();
      resolve();
    }),
  );
}
