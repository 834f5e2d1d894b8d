#!/usr/bin/env node
/**
 * A local Apache Kafka for trying Weir's Kafka source and sink: `npm run kafka:local` builds the
 * broker if needed (npm run kafka:build), formats a single-node KRaft broker in ./.weir-kafka (or
 * $WEIR_KAFKA_DIR) the first time, starts it on 127.0.0.1:9092 ($WEIR_KAFKA_PORT; the controller on
 * the next port) and prints its bootstrap address. `npm run kafka:local -- stop` stops it. Plaintext
 * on 127.0.0.1 only: a sandbox, not a server.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareBroker, runningPid, startBroker, stopPid, waitForBroker } from './kafka-broker.mjs';

const dir = resolve(process.env.WEIR_KAFKA_DIR ?? '.weir-kafka');
const port = Number(process.env.WEIR_KAFKA_PORT ?? 9092);

if (process.argv[2] === 'stop') {
  const pid = runningPid(dir);
  if (pid !== null) await stopPid(pid);
  console.error(pid === null ? `kafka:local: no broker runs in ${dir}` : `kafka:local: stopped the broker in ${dir}`);
  process.exit(0);
}

const build = spawnSync(process.execPath, [fileURLToPath(new URL('./kafka-build.mjs', import.meta.url))], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (build.status !== 0) process.exit(1);

try {
  const ports = await prepareBroker({ dir, port, controllerPort: port + 1 });
  const bootstrap = `127.0.0.1:${ports.port}`;
  if (runningPid(dir) !== null) await waitForBroker(bootstrap, 120_000);
  else await startBroker({ dir, port: ports.port, detached: true });
  console.error(`kafka:local: Kafka is running in ${dir} (stop it with: npm run kafka:local -- stop)`);
  console.log(bootstrap);
} catch (e) {
  console.error(`kafka:local: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
