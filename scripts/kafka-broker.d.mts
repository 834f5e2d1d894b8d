// Types of scripts/kafka-broker.mjs for the TypeScript that imports it (test/support/kafka-broker.ts).
import type { ChildProcess } from 'node:child_process';

export declare const CLASSPATH_FILE: string;
export declare function brokerClasspath(): string;
export declare function freePort(): Promise<number>;
export declare function prepareBroker(options: {
  dir: string;
  port?: number;
  controllerPort?: number;
}): Promise<{ port: number; controllerPort: number }>;
export declare function startBroker(options: {
  dir: string;
  port: number;
  detached?: boolean;
  timeoutMs?: number;
}): Promise<{ bootstrap: string; child: ChildProcess }>;
export declare function waitForBroker(bootstrap: string, timeoutMs: number, dead?: () => string | null): Promise<void>;
export declare function runningPid(dir: string): number | null;
export declare function stopPid(pid: number, graceMs?: number): Promise<void>;
export interface ToolTransaction {
  transactionalId: string;
  coordinator: number;
  producerId: number;
  state: string;
}
export declare function listTransactionsWithTool(bootstrap: string): ToolTransaction[];
export declare function removeBrokerDir(dir: string): void;
