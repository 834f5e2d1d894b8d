/**
 * A single-node Apache Kafka broker (KRaft: broker and controller in one JVM) run from the jars
 * `npm run kafka:build` listed in kafka-broker/target/classpath.txt. Used by `npm run kafka:local`
 * (scripts/kafka-local.mjs) and by the tests' broker (test/support/kafka-broker.ts).
 *
 * A broker's folder holds `server.properties`, `data/` (formatted once by StorageTool), `broker.log`
 * (the JVM's stdout and stderr) and `broker.pid`. Readiness is a real Metadata request answered
 * with this broker in it, never a sleep.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, openSync, closeSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import kafkajs from 'kafkajs';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const CLASSPATH_FILE = join(ROOT, 'kafka-broker', 'target', 'classpath.txt');

/** The broker's classpath; throws naming `npm run kafka:build` when it was never built. */
export function brokerClasspath() {
  if (!existsSync(CLASSPATH_FILE))
    throw new Error(`the Kafka broker is not built: run npm run kafka:build (${CLASSPATH_FILE} is missing)`);
  return readFileSync(CLASSPATH_FILE, 'utf8').trim();
}

/** A port nobody listens on now (the broker binds it a moment later). */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

/**
 * server.properties of a one-node cluster. The internal topics get few partitions (50 each by
 * default, which costs seconds at start) and a replication factor of 1; a transaction may stay
 * prepared up to 15 minutes (the broker's default cap), longer than any restart of a Weir run.
 */
function serverProperties({ dir, port, controllerPort }) {
  return [
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
    'controller.listener.names=CONTROLLER',
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    'inter.broker.listener.name=PLAINTEXT',
    `log.dirs=${join(dir, 'data')}`,
    'num.partitions=1',
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=4',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'transaction.state.log.num.partitions=4',
    'transaction.max.timeout.ms=900000',
    'group.initial.rebalance.delay.ms=0',
    'share.coordinator.state.topic.replication.factor=1',
    'share.coordinator.state.topic.min.isr=1',
    '',
  ].join('\n');
}

const JVM_OPTS = ['-Xms128m', '-Xmx512m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Djava.awt.headless=true'];

function java(classpath, args, options = {}) {
  return spawnSync('java', ['-cp', classpath, ...args], { encoding: 'utf8', ...options });
}

/**
 * Writes the configuration and formats the storage unless `dir` already holds a formatted broker
 * (then its ports are read back from its server.properties). Returns the ports.
 */
export async function prepareBroker({ dir, port, controllerPort }) {
  const props = join(dir, 'server.properties');
  if (existsSync(join(dir, 'data', 'meta.properties'))) {
    const text = readFileSync(props, 'utf8');
    return {
      port: Number(/PLAINTEXT:\/\/127\.0\.0\.1:(\d+)/.exec(text)?.[1]),
      controllerPort: Number(/CONTROLLER:\/\/127\.0\.0\.1:(\d+)/.exec(text)?.[1]),
    };
  }
  mkdirSync(dir, { recursive: true });
  const ports = { port: port ?? (await freePort()), controllerPort: controllerPort ?? (await freePort()) };
  writeFileSync(props, serverProperties({ dir, ...ports }));
  // A cluster id is 16 random bytes in URL-safe base64 without padding (Uuid.randomUuid's form); it
  // may start with '-', so it is passed as --cluster-id=ID, never as a separate argument.
  const clusterId = randomBytes(16).toString('base64url');
  const r = java(brokerClasspath(), [
    ...JVM_OPTS,
    'kafka.tools.StorageTool',
    'format',
    `--cluster-id=${clusterId}`,
    '--config',
    props,
  ]);
  if (r.status !== 0) throw new Error(`kafka StorageTool format failed (${r.status}):\n${r.stdout}${r.stderr}`);
  return ports;
}

/**
 * Starts the broker of `dir` (prepared by prepareBroker) and resolves once it answers a Metadata
 * request. `detached`: the broker outlives this process (kafka:local); otherwise it is our child.
 */
export async function startBroker({ dir, port, detached = false, timeoutMs = 120_000 }) {
  const log = openSync(join(dir, 'broker.log'), 'a');
  const child = spawn('java', ['-cp', brokerClasspath(), ...JVM_OPTS, 'kafka.Kafka', join(dir, 'server.properties')], {
    stdio: ['ignore', log, log],
    detached,
  });
  closeSync(log);
  writeFileSync(join(dir, 'broker.pid'), String(child.pid));
  let exited = null;
  child.once('exit', (code, signal) => (exited = { code, signal }));
  if (detached) child.unref();
  const bootstrap = `127.0.0.1:${port}`;
  try {
    await waitForBroker(bootstrap, timeoutMs, () =>
      exited ? `the broker exited (${exited.code ?? exited.signal}); see ${join(dir, 'broker.log')}` : null,
    );
  } catch (e) {
    if (!exited) child.kill('SIGKILL');
    throw e;
  }
  return { bootstrap, child };
}

/** Resolves when a Metadata request to `bootstrap` lists a broker; `dead()` names why to give up. */
export async function waitForBroker(bootstrap, timeoutMs, dead = () => null) {
  const deadline = Date.now() + timeoutMs;
  const kafka = new kafkajs.Kafka({
    brokers: [bootstrap],
    clientId: 'weir-broker-probe',
    logLevel: kafkajs.logLevel.NOTHING,
    retry: { retries: 0 },
    connectionTimeout: 1000,
  });
  for (;;) {
    const why = dead();
    if (why) throw new Error(why);
    const admin = kafka.admin();
    try {
      await admin.connect();
      const { brokers } = await admin.describeCluster();
      if (brokers.length > 0) return;
    } catch {
      // not listening yet, or the controller has not registered the broker yet
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
    if (Date.now() > deadline)
      throw new Error(`the Kafka broker at ${bootstrap} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The pid kafka:local recorded for `dir`'s broker if that process still runs, else null. */
export function runningPid(dir) {
  const file = join(dir, 'broker.pid');
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8'));
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

/** SIGTERM (the broker shuts down cleanly), SIGKILL after `graceMs`; resolves when it is gone. */
export async function stopPid(pid, graceMs = 20_000) {
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (alive()) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGKILL');
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  while (alive()) await new Promise((r) => setTimeout(r, 50));
}

/**
 * The broker's own transaction listing (`kafka-transactions.sh list`: TransactionsCommand of
 * kafka-tools): one entry per transactional id the coordinator knows, with its state.
 */
export function listTransactionsWithTool(bootstrap) {
  const r = java(brokerClasspath(), [
    ...JVM_OPTS,
    'org.apache.kafka.tools.TransactionsCommand',
    '--bootstrap-server',
    bootstrap,
    'list',
  ]);
  if (r.status !== 0) throw new Error(`TransactionsCommand list failed (${r.status}):\n${r.stdout}${r.stderr}`);
  const lines = r.stdout.trim().split('\n');
  // Header: TransactionalId Coordinator ProducerId TransactionState (columns padded with spaces).
  return lines.slice(1).flatMap((line) => {
    const [transactionalId, coordinator, producerId, state] = line.trim().split(/\s+/);
    return transactionalId
      ? [{ transactionalId, coordinator: Number(coordinator), producerId: Number(producerId), state }]
      : [];
  });
}

/** Deletes a stopped broker's folder. */
export function removeBrokerDir(dir) {
  rmSync(dir, { recursive: true, force: true });
}
