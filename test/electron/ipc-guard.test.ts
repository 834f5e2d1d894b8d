/**
 * The IPC guard with a stubbed ipcMain: only our window's top frame on app://weir reaches the
 * host, only with a known method and params that pass the schema; errors keep their code.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { EngineHost, HostEvent } from '../../engine/host/common/api.ts';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL, type IpcReply } from '../../engine/host/common/methods.ts';
import { createLocalHost, type LocalHost } from '../../engine/host/node/local-host.ts';
import { forwardEvents, registerHostIpc, type InvokeEvent, type IpcMainLike } from '../../electron/ipc-guard.ts';
import { secureWebPreferences } from '../../electron/window-options.ts';

type Handler = (event: InvokeEvent, ...args: unknown[]) => Promise<unknown> | unknown;

class StubIpcMain implements IpcMainLike {
  handlers = new Map<string, Handler>();
  handle(channel: string, listener: Handler): void {
    assert.ok(!this.handlers.has(channel), `second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  async invoke(event: InvokeEvent, ...args: unknown[]): Promise<IpcReply> {
    const h = this.handlers.get(IPC_CALL_CHANNEL);
    assert.ok(h, 'handler registered');
    return (await h(event, ...args)) as IpcReply;
  }
}

const OUR_ID = 7;
function event(opts: { url?: string; senderId?: number; subframe?: boolean; gone?: boolean } = {}): InvokeEvent {
  const frame = { url: opts.url ?? 'app://weir/index.html', parent: opts.subframe ? {} : null };
  return { sender: { id: opts.senderId ?? OUR_ID }, senderFrame: opts.gone ? null : frame } as unknown as InvokeEvent;
}

describe('electron IPC guard', () => {
  const workspace = mkdtempSync(join(tmpdir(), 'weir-ipc-'));
  let host: LocalHost;
  let calls: string[];
  let ipc: StubIpcMain;
  let unregister: () => void;

  before(() => {
    host = createLocalHost({
      workspace,
      examplesDir: resolve(import.meta.dirname, '../../examples'),
      transport: 'electron',
    });
    calls = [];
    // Count what reaches the host: a refused call must never get there.
    const spy = new Proxy(host, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver);
        return typeof v === 'function' && prop !== 'onEvent'
          ? (...args: unknown[]) => {
              calls.push(String(prop));
              return (v as (...a: unknown[]) => unknown).apply(target, args);
            }
          : v;
      },
    }) as EngineHost;
    ipc = new StubIpcMain();
    unregister = registerHostIpc(ipc, spy, { isOurWebContents: (id) => id === OUR_ID });
  });
  after(async () => {
    await host.dispose();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('answers our window', async () => {
    const r = await ipc.invoke(event(), 'hostInfo', {});
    assert.equal(r.ok, true);
    assert.equal((r as { result: { transport: string } }).result.transport, 'electron');
    assert.deepEqual(calls, ['hostInfo']);
  });

  const refusals: Array<[string, InvokeEvent, RegExp]> = [
    ['another webContents', event({ senderId: 99 }), /not a Weir window/],
    ['a subframe', event({ subframe: true }), /subframes/],
    ['a foreign origin', event({ url: 'https://evil.example/' }), /https:\/\/evil\.example/],
    ['a file:// page', event({ url: 'file:///tmp/x.html' }), /refused/],
    ['a lookalike host', event({ url: 'app://weir.evil/index.html' }), /refused/],
    ['a destroyed frame', event({ gone: true }), /gone/],
  ];
  for (const [what, ev, message] of refusals) {
    it(`refuses ${what} without calling the host`, async () => {
      calls = [];
      const r = await ipc.invoke(ev, 'hostInfo', {});
      assert.equal(r.ok, false);
      if (!r.ok) {
        assert.equal(r.error.code, 'invalid_request');
        assert.match(r.error.message, message);
      }
      assert.deepEqual(calls, []);
    });
  }

  it('refuses malformed payloads with invalid_request naming the field', async () => {
    calls = [];
    const cases: Array<[unknown, unknown, RegExp]> = [
      ['deleteEverything', {}, /unknown method/],
      [42, {}, /unknown method/],
      ['__proto__', {}, /unknown method/],
      ['stop', { runId: 1 }, /params\.runId/],
      ['readJob', { path: '' }, /params\.path/],
      ['writeJob', { path: 'a.weir.json', job: 'nope' }, /params\.job/],
      ['hostInfo', { extra: true }, /invalid_request|Unrecognized|extra/i],
    ];
    for (const [method, params, message] of cases) {
      const r = await ipc.invoke(event(), method, params);
      assert.equal(r.ok, false, String(method));
      if (!r.ok) {
        assert.equal(r.error.code, 'invalid_request');
        assert.match(r.error.message, message);
      }
    }
    assert.deepEqual(calls, [], 'no malformed call reached the host');
  });

  it('lets only our window ask for a folder grant, with a valid document path', async () => {
    calls = [];
    for (const [ev, params] of [
      [event({ url: 'https://evil.example/' }), {}],
      [event({ subframe: true }), { path: 'a.weir.json' }],
      [event(), { path: '' }],
      [event(), { path: 'a.weir.json', folder: '/' }],
    ] as Array<[InvokeEvent, unknown]>) {
      const r = await ipc.invoke(ev, 'grantFolder', params);
      assert.equal(r.ok, false);
      if (!r.ok) assert.equal(r.error.code, 'invalid_request', r.error.message);
    }
    assert.deepEqual(calls, [], 'no refused call reached the host (no folder picker opened)');
    // This host has no shell hooks: the call reaches it and answers like served mode.
    const r = await ipc.invoke(event(), 'grantFolder', { path: 'a.weir.json' });
    assert.deepEqual(calls, ['grantFolder']);
    assert.equal(r.ok, false);
    if (!r.ok) assert.equal(r.error.code, 'unsupported');
  });

  it('passes host errors through with their code and no stack', async () => {
    const r = await ipc.invoke(event(), 'readJob', { path: '/etc/passwd' });
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.error.code, 'forbidden_path');
      assert.doesNotMatch(r.error.message, /\n\s+at /);
    }
  });

  it('forwards host events to the window, one message per tick', async () => {
    const sent: Array<[string, HostEvent[]]> = [];
    const target = {
      isDestroyed: () => false,
      send: (c: string, e: unknown) => {
        sent.push([c, e as HostEvent[]]);
      },
    };
    const stop = forwardEvents(host, () => target);
    host.sendAppCommand('save');
    host.sendAppCommand('open', '/x.weir.json');
    await new Promise((r) => setTimeout(r, 10));
    stop();
    assert.equal(sent.length, 1);
    assert.equal(sent[0][0], IPC_EVENT_CHANNEL);
    assert.deepEqual(sent[0][1], [
      { type: 'app.command', command: 'save' },
      { type: 'app.command', command: 'open', path: '/x.weir.json' },
    ]);
  });

  it('unregisters', () => {
    unregister();
    assert.equal(ipc.handlers.size, 0);
  });

  it('keeps the window locked down', () => {
    const p = secureWebPreferences('/p.cjs');
    assert.equal(p.contextIsolation, true);
    assert.equal(p.sandbox, true);
    assert.equal(p.nodeIntegration, false);
    assert.equal(p.webviewTag, false);
    assert.equal(p.webSecurity, true);
  });
});
