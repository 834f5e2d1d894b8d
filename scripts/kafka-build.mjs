#!/usr/bin/env node
/**
 * `npm run kafka:build`: resolves the single-node Kafka broker of kafka-broker/pom.xml (Apache
 * Kafka from Maven Central) into kafka-broker/target/classpath.txt, the jars' paths in the local
 * Maven repository (~/.m2). Nothing is compiled. Maven runs offline first (-o) and goes online only
 * when ~/.m2 lacks a jar; a classpath newer than the pom whose jars all exist is left alone. One
 * build at a time (build-lock.mjs).
 * Exit 1 with one line when Java or Maven is missing or the build fails.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildLock, onPath } from './build-lock.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)), 'kafka-broker');
const target = join(root, 'target');
const classpath = join(target, 'classpath.txt');

function fail(message) {
  console.error(`kafka:build: ${message}`);
  process.exit(1);
}

function upToDate() {
  const stamp = join(target, '.built');
  if (!existsSync(stamp) || !existsSync(classpath)) return false;
  if (statSync(stamp).mtimeMs < statSync(join(root, 'pom.xml')).mtimeMs) return false;
  // ~/.m2 may have been cleaned since: every jar must still be there.
  return readFileSync(classpath, 'utf8')
    .trim()
    .split(':')
    .every((p) => p === '' || existsSync(p));
}

if (!onPath('java', ['-version']))
  fail('Java is not installed (Java 17 or newer: apt-get install openjdk-17-jdk-headless)');
if (!onPath('mvn', ['-v'])) fail('Maven is not installed (apt-get install maven)');

const unlock = buildLock(join(target, '.build-lock'), fail);
process.on('exit', unlock);
if (upToDate()) {
  console.log(`kafka:build: the Kafka broker is up to date (${classpath})`);
  process.exit(0);
}
const env = { ...process.env, MAVEN_OPTS: process.env.MAVEN_OPTS ?? '-Xmx512m -XX:TieredStopAtLevel=1' };
const mvn = (extra) => spawnSync('mvn', ['-B', '-q', ...extra, 'package'], { cwd: root, env, encoding: 'utf8' });
let r = mvn(['-o']);
if (r.status !== 0) {
  console.log('kafka:build: fetching the Kafka broker from Maven Central into ~/.m2 ...');
  r = mvn([]);
}
if (r.status !== 0) {
  process.stderr.write(r.stdout + r.stderr);
  fail('mvn package failed (see above)');
}
writeFileSync(join(target, '.built'), new Date().toISOString());
console.log(`kafka:build: the Kafka broker's classpath is in ${classpath}`);
