#!/usr/bin/env node
/**
 * `npm run flink:build [-- --flink-version 1.20|2.x|all]`: builds Weir's Flink runner
 * (flink-runner/, a Maven project) into flink-runner/target/flink-<line>/: the compiled main class
 * and classpath.txt, the dependency jars' paths in the local Maven repository (~/.m2). Nothing is
 * downloaded twice: Maven runs offline first (-o) and goes online only when ~/.m2 lacks something.
 * An up-to-date build (newer than the pom and every source) is left alone. Exit 1 with one line
 * when Java or Maven is missing or the build fails.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildLock, onPath } from './build-lock.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)), 'flink-runner');
/** weir's --flink-version -> the Maven profile and the target folder it builds into. */
const LINES = { '1.20': { profile: 'flink-1.20', dir: 'flink-1.20' }, '2.x': { profile: 'flink-2', dir: 'flink-2' } };

function fail(message) {
  console.error(`flink:build: ${message}`);
  process.exit(1);
}

function parseVersions(argv) {
  const i = argv.indexOf('--flink-version');
  const v = i >= 0 ? argv[i + 1] : '1.20';
  if (v === 'all') return Object.keys(LINES);
  if (!LINES[v]) fail(`unknown --flink-version '${v}' (allowed: 1.20, 2.x, all)`);
  return [v];
}

function newestSource(dir) {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    newest = Math.max(newest, s.isDirectory() ? newestSource(p) : s.mtimeMs);
  }
  return newest;
}

function upToDate(target) {
  // Maven leaves an unchanged jar's time alone: a stamp written after each build says when it was.
  const stamp = join(target, '.built');
  const cp = join(target, 'classpath.txt');
  if (!existsSync(stamp) || !existsSync(cp)) return false;
  const built = statSync(stamp).mtimeMs;
  if (built < Math.max(statSync(join(root, 'pom.xml')).mtimeMs, newestSource(join(root, 'src')))) return false;
  // ~/.m2 may have been cleaned since: every jar of the classpath must still be there.
  return readFileSync(cp, 'utf8')
    .trim()
    .split(':')
    .every((p) => p === '' || existsSync(p));
}

if (!onPath('java', ['-version']))
  fail('Java is not installed (Java 17 or newer: apt-get install openjdk-17-jdk-headless)');
if (!onPath('mvn', ['-v'])) fail('Maven is not installed (apt-get install maven)');

const env = { ...process.env, MAVEN_OPTS: process.env.MAVEN_OPTS ?? '-Xmx512m -XX:TieredStopAtLevel=1' };
const unlock = buildLock(join(root, 'target', '.build-lock'), fail);
process.on('exit', unlock);
for (const version of parseVersions(process.argv.slice(2))) {
  const { profile, dir } = LINES[version];
  const target = join(root, 'target', dir);
  if (upToDate(target)) {
    console.log(`flink:build: Flink ${version} runner is up to date (${target})`);
    continue;
  }
  const mvn = (extra) =>
    spawnSync('mvn', ['-B', '-q', ...extra, '-P', profile, 'package'], { cwd: root, env, encoding: 'utf8' });
  let r = mvn(['-o']);
  if (r.status !== 0) {
    console.log(`flink:build: fetching the Flink ${version} artifacts from Maven Central into ~/.m2 ...`);
    r = mvn([]);
  }
  if (r.status !== 0) {
    process.stderr.write(r.stdout + r.stderr);
    fail(`mvn package -P ${profile} failed (see above)`);
  }
  writeFileSync(join(target, '.built'), new Date().toISOString());
  console.log(`flink:build: built the Flink ${version} runner into ${target}`);
}
