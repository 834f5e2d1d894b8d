import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rename, rm, stat, writeFile, mkdir, cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FsCheckpointStorage, loadCheckpoint } from '../../../engine/checkpoint/fs-storage.ts';
import { FsCheckpointWorkerStorage } from '../../../engine/checkpoint/fs-worker-storage.ts';
import { AtomicFileWriter } from '../../../engine/checkpoint/atomic-file.ts';
import { jobRoot } from '../../../engine/checkpoint/fs-layout.ts';
import type { SubtaskStateSnapshot } from '../../../engine/contracts/checkpoint.ts';
import type {
  CheckpointKind,
  PendingCheckpointData,
  StateFileRef,
} from '../../../engine/contracts/checkpoint-storage.ts';

let dir: string;
let root: string;
let storage: FsCheckpointStorage;
let worker: FsCheckpointWorkerStorage;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'weir-fs-storage-'));
  root = jobRoot(join(dir, 'checkpoints'), 'my job/1');
  storage = new FsCheckpointStorage(root, 'my job/1');
  worker = new FsCheckpointWorkerStorage(root);
  await storage.open();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function stateWith(files: StateFileRef[], operatorId = 'win', subtask = 0): SubtaskStateSnapshot {
  return {
    operatorId,
    subtask,
    parallelism: 1,
    operator: { pos: 42 },
    keyed: { backend: 'rocksdb', keyGroupRange: { start: 0, end: 127 }, files, checkpointedBytes: 0, fullBytes: 0 },
  };
}

/** Writes files through the worker view as a task would, then stores the checkpoint. */
async function checkpoint(
  id: number,
  kind: CheckpointKind = 'checkpoint',
  opts: { shared?: StateFileRef[]; newShared?: string } = {},
) {
  const timestamp = 1_700_000_000_000 + id;
  worker.beginCheckpoint({ id, kind, timestamp });
  const files = [await worker.writeStateFile(id, 'win-0.wst', Buffer.from(`state of ${id}`))];
  if (opts.newShared)
    files.push(
      await worker.writeStateFile(id, opts.newShared, Buffer.from(`shared ${opts.newShared}`), { shared: true }),
    );
  files.push(...(opts.shared ?? []));
  const data: PendingCheckpointData = {
    id,
    kind,
    triggerTime: timestamp,
    barrierTimestamp: timestamp,
    states: [stateWith(files)],
  };
  return { data, cp: await storage.store(data), files };
}

describe('FsCheckpointStorage', () => {
  it('lays out chk-<id>/ under <dir>/<jobName>/ with _metadata and checksummed files', async () => {
    const { cp } = await checkpoint(1);
    assert.equal(cp.location, join(root, 'chk-1'));
    assert.ok(root.endsWith(join('checkpoints', 'my_job_1')));
    assert.deepEqual((await readdir(cp.location)).sort(), ['_metadata', 'win-0.wst']);
    const meta = JSON.parse(await readFile(join(cp.location, '_metadata'), 'utf8'));
    assert.equal(meta.format, 'weir.checkpoint/v2');
    assert.match(meta.checksum, /^[0-9a-f]{64}$/);
    assert.equal(meta.id, 1);
    assert.match(meta.states[0].keyed.files[0].sha256, /^[0-9a-f]{64}$/);
    assert.deepEqual(meta.states[0].operator, { pos: 42 });
    const listed = await storage.listRetained();
    assert.deepEqual(
      listed.map((r) => [r.id, r.kind, r.path]),
      [[1, 'checkpoint', cp.location]],
    );
    assert.ok(listed[0].bytes > 0);
  });

  it('ignores a checkpoint folder without _metadata and removes it on open', async () => {
    await checkpoint(1);
    // Checkpoint 2 crashed after writing its state file but before its metadata.
    worker.beginCheckpoint({ id: 2, kind: 'checkpoint', timestamp: 5 });
    await worker.writeStateFile(2, 'win-0.wst', Buffer.from('half'));
    await writeFile(join(root, 'chk-2', '.win-1.wst.abcd.tmp'), 'torn');
    assert.deepEqual(
      (await storage.listRetained()).map((r) => r.id),
      [1],
    );
    assert.equal((await storage.latest())?.id, 1);
    await storage.open();
    assert.deepEqual(
      (await readdir(root)).filter((n) => n.startsWith('chk-')),
      ['chk-1'],
    );
  });

  it('writes files atomically: an unfinished write is invisible under its final name', async () => {
    const target = join(root, 'chk-9', 'x.wst');
    const w = await AtomicFileWriter.create(target);
    await w.write(Buffer.from('partial'));
    await assert.rejects(stat(target));
    const done = await w.commit();
    assert.equal(await readFile(target, 'utf8'), 'partial');
    assert.equal(done.bytes, 7);
    const w2 = await AtomicFileWriter.create(join(root, 'chk-9', 'y.wst'));
    await w2.write(Buffer.from('never'));
    await w2.abort();
    assert.deepEqual((await readdir(join(root, 'chk-9'))).sort(), ['x.wst']);
  });

  it('detects a corrupted state file with an error naming it', async () => {
    const { cp } = await checkpoint(1);
    const file = join(cp.location, 'win-0.wst');
    const bytes = await readFile(file);
    bytes[0] ^= 0xff;
    await writeFile(file, bytes);
    await assert.rejects(
      storage.load(cp.location),
      (err: Error) => err.message.includes(file) && /corrupt: sha256 [0-9a-f]+ does not match/.test(err.message),
    );
    await assert.rejects(storage.latest(), new RegExp(file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    await writeFile(file, Buffer.concat([bytes, Buffer.from('x')]));
    await assert.rejects(storage.load(cp.location), /corrupt: it has \d+ bytes, the checkpoint metadata records/);
    await rm(file);
    await assert.rejects(storage.load(cp.location), new RegExp(`state file .*win-0.wst is missing`));
  });

  it('reports corrupt or missing metadata clearly', async () => {
    const { cp } = await checkpoint(1);
    await writeFile(join(cp.location, '_metadata'), '{"format": "weir.checkp');
    await assert.rejects(loadCheckpoint(cp.location), /checkpoint metadata .*_metadata is corrupt/);
    await assert.rejects(loadCheckpoint(join(dir, 'nope')), /checkpoint .*nope does not exist/);
    await rm(join(cp.location, '_metadata'));
    await assert.rejects(loadCheckpoint(cp.location), /is incomplete: it has no _metadata file/);
  });

  it('load accepts the _metadata path and returns absolute, verified file paths', async () => {
    const { cp } = await checkpoint(3);
    const loaded = await storage.load(join(cp.location, '_metadata'));
    assert.equal(loaded.id, 3);
    assert.equal(loaded.states[0].keyed?.files?.[0].path, join(root, 'chk-3', 'win-0.wst'));
  });

  it('puts savepoints in savepoints/sp-<id>-<time>/, self-contained, never deleted by discard', async () => {
    const { files } = await checkpoint(1, 'checkpoint', { newShared: 'base-1.wst' });
    const sharedRef = files.find((f) => f.shared)!;
    const { cp: sp } = await checkpoint(2, 'savepoint', { shared: [sharedRef] });
    assert.equal(sp.location, join(root, 'savepoints', `sp-2-${1_700_000_000_002}`));
    const spFiles = sp.states[0].keyed!.files!;
    assert.ok(
      spFiles.every((f) => !f.shared && f.path.startsWith('savepoints/sp-2-')),
      JSON.stringify(spFiles),
    );
    await storage.discard(sp);
    assert.ok((await stat(join(sp.location, '_metadata'))).isFile());
    // Moved elsewhere, it still loads (it shares nothing with the job folder).
    const moved = join(dir, 'elsewhere', 'my-savepoint');
    await mkdir(join(dir, 'elsewhere'));
    await cp(sp.location, moved, { recursive: true });
    await rm(root, { recursive: true });
    const loaded = await loadCheckpoint(moved);
    assert.equal(loaded.kind, 'savepoint');
    assert.equal(loaded.states[0].keyed!.files!.length, 2);
    assert.ok(loaded.states[0].keyed!.files!.every((f) => f.path.startsWith(moved)));
  });

  it('latest() is the newest completed checkpoint or savepoint by id', async () => {
    assert.equal(await storage.latest(), null);
    await assert.rejects(
      storage.resumeLatest(),
      /nothing to resume: no completed checkpoint or savepoint of job 'my job\/1'/,
    );
    await checkpoint(1);
    await checkpoint(2, 'savepoint');
    assert.equal((await storage.latest())?.kind, 'savepoint');
    await checkpoint(3);
    assert.deepEqual([(await storage.resumeLatest()).id, (await storage.resumeLatest()).kind], [3, 'checkpoint']);
    assert.deepEqual(
      (await storage.listRetained()).map((r) => [r.id, r.kind]),
      [
        [3, 'checkpoint'],
        [2, 'savepoint'],
        [1, 'checkpoint'],
      ],
    );
  });

  it('deletes a shared file only when no retained checkpoint references it, and rebuilds counts on open', async () => {
    const one = await checkpoint(1, 'checkpoint', { newShared: 'base-a.wst' });
    const base = one.files.find((f) => f.shared)!;
    const two = await checkpoint(2, 'checkpoint', { shared: [base], newShared: 'delta-b.wst' });
    const delta = two.files.find((f) => f.shared && f.path !== base.path)!;
    const three = await checkpoint(3, 'checkpoint', { newShared: 'base-c.wst' });
    // An orphan from a checkpoint that crashed before completing.
    await worker.writeStateFile(4, 'orphan.wst', Buffer.from('o'), { shared: true });
    await storage.discard(one.cp);
    assert.ok(await stat(join(root, base.path)), 'base still used by checkpoint 2');
    // A fresh storage (e.g. after a crash) rebuilds the counts from the metadata of 2 and 3.
    const reopened = new FsCheckpointStorage(root, 'my job/1');
    await reopened.open();
    assert.deepEqual((await readdir(join(root, 'shared'))).sort(), ['base-a.wst', 'base-c.wst', 'delta-b.wst']);
    await reopened.discard((await reopened.listCompleted()).find((c) => c.id === 2)!);
    assert.deepEqual((await readdir(join(root, 'shared'))).sort(), ['base-c.wst']);
    assert.equal(delta.shared, true);
    const loaded = await reopened.load(three.cp.location);
    assert.equal(loaded.id, 3);
  });

  it('discardFailed removes the failed checkpoint folder but keeps shared files for the next delta', async () => {
    worker.beginCheckpoint({ id: 5, kind: 'checkpoint', timestamp: 1 });
    const exclusive = await worker.writeStateFile(5, 'a.wst', Buffer.from('a'));
    const shared = await worker.writeStateFile(5, 'd.wst', Buffer.from('d'), { shared: true });
    await storage.discardFailed({
      id: 5,
      kind: 'checkpoint',
      triggerTime: 1,
      barrierTimestamp: 1,
      states: [stateWith([exclusive, shared])],
    });
    await assert.rejects(stat(join(root, 'chk-5')));
    assert.ok(await stat(join(root, shared.path)));
  });

  it('rejects unsafe state file names', async () => {
    await assert.rejects(worker.writeStateFile(1, '../escape', Buffer.from('x')), /invalid state file name/);
    await assert.rejects(worker.writeStateFile(1, '_metadata', Buffer.from('x')), /invalid state file name/);
  });

  it('an incomplete savepoint folder is ignored and cleaned', async () => {
    await mkdir(join(root, 'savepoints', 'sp-7-123'), { recursive: true });
    await writeFile(join(root, 'savepoints', 'sp-7-123', 'x.wst'), 'x');
    assert.deepEqual(await storage.listRetained(), []);
    await storage.open();
    assert.deepEqual(await readdir(join(root, 'savepoints')), []);
    await rename(join(root, 'savepoints'), join(root, 'savepoints-gone'));
  });
});
