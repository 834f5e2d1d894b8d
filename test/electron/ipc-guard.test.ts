/**
 * The IPC guard with a stubbed ipcMain: only our window's top frame on app://weir reaches the
 * host, only with a known method and params that pass the schema; errors keep their code. The
 * page side (`hostFromBridge`, what `window.weir` becomes) validates results and events like the
 * WebSocket client.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { IpcMainInvokeEvent } from 'electron';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { EngineHost, HostErrorShape, HostEvent } from '../../engine/host/common/api.ts';
import { HostError } from '../../engine/host/common/errors.ts';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../../engine/host/common/ipc-channels.ts';
import { hostFromBridge } from '../../engine/host/browser/window-api.ts';
import { createLocalHost, type LocalHost } from '../../engine/host/node/local-host.ts';
import { serveHostOverIpc, type InvokeEvent, type IpcMainLike } from '../../electron/ipc-guard.ts';
import { secureWebPreferences } from '../../electron/window-options.ts';

// Electron's own listener type: the guard is checked against the real typings.
type Handler = Parameters<IpcMainLike['handle']>[1];
/** A call's answer, read from the protocol message the handler returned. */
type IpcReply = { ok: true; result: unknown } | { ok: false; error: HostErrorShape };
let nextId = 1;

class StubIpcMain implements IpcMainLike {
  handlers = new Map<string, Handler>();
  handle(channel: string, listener: Handler): void {
    assert.ok(!this.handlers.has(channel), `second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** What the preload does for one call: invoke with the `call` message, get its answer message. */
  async invokeText(event: InvokeEvent, text: unknown): Promise<string> {
    const h = this.handlers.get(IPC_CALL_CHANNEL);
    assert.ok(h, 'handler registered');
    const answer: unknown = await h(event as IpcMainInvokeEvent, text);
    assert.equal(typeof answer, 'string', 'every call is answered with protocol text');
    return answer as string;
  }
  async invoke(event: InvokeEvent, method: unknown, params: unknown): Promise<IpcReply> {
    const id = nextId++;
    const m = JSON.parse(await this.invokeText(event, JSON.stringify({ kind: 'call', id, method, params })));
    assert.equal(m.id, id, 'the answer carries the call id');
    return m.kind === 'result' ? { ok: true, result: m.result } : { ok: false, error: m.error };
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
  /** What the window received on the event channel. */
  let sent: Array<[string, string]> = [];
  let destroyed = false;
  const target = {
    isDestroyed: () => destroyed,
    send: (c: string, text: unknown) => {
      sent.push([c, text as string]);
    },
  };

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
    unregister = serveHostOverIpc(ipc, spy, { isOurWebContents: (id) => id === OUR_ID, target: () => target });
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

  it('refuses a message that is not protocol text, answering it all the same', async () => {
    calls = [];
    for (const text of [42, 'not json', JSON.stringify({ kind: 'call', id: 5 })]) {
      const m = JSON.parse(await ipc.invokeText(event(), text));
      assert.equal(m.kind, 'error');
      assert.equal(m.error.code, 'invalid_request');
    }
    const refused = JSON.parse(await ipc.invokeText(event({ subframe: true }), 'not json'));
    assert.deepEqual([refused.id, refused.error.code], [null, 'invalid_request']);
    assert.deepEqual(calls, []);
  });

  it('forwards host events to the window, one message per tick', async () => {
    sent = [];
    host.sendAppCommand('save');
    host.sendAppCommand('open', '/x.weir.json');
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(sent.length, 1);
    assert.equal(sent[0][0], IPC_EVENT_CHANNEL);
    const message = JSON.parse(sent[0][1]);
    assert.equal(message.kind, 'events');
    assert.deepEqual(message.events, [
      { type: 'app.command', command: 'save' },
      { type: 'app.command', command: 'open', path: '/x.weir.json' },
    ]);
  });

  it('serves the page through the same RPC client as the WebSocket, validating what comes back', async () => {
    // The preload in miniature: invoke with the text, hand every answer and event to the page.
    const listeners = new Set<(text: string) => void>();
    const deliver = (text: string) => {
      for (const l of listeners) l(text);
    };
    const page = hostFromBridge({
      send: (text) => void ipc.invokeText(event(), text).then(deliver),
      onMessage: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    });
    const info = await page.hostInfo({});
    assert.equal(info.transport, 'electron');
    await assert.rejects(page.readJob({ path: '/etc/passwd' }), (e: unknown) => {
      assert.ok(e instanceof HostError);
      assert.equal(e.code, 'forbidden_path');
      return true;
    });
    sent = [];
    const heard: HostEvent[] = [];
    const off = page.onEvent((e) => heard.push(e));
    const warnings: unknown[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
    try {
      // A malformed event (not in the protocol) is dropped on the page side; a valid one arrives.
      deliver(JSON.stringify({ kind: 'events', events: [{ type: 'app.command', command: 'format-disk' }] }));
      host.sendAppCommand('undo');
      for (const [, text] of sent.splice(0)) deliver(text);
      await new Promise((r) => setTimeout(r, 10));
      for (const [, text] of sent.splice(0)) deliver(text);
    } finally {
      console.warn = warn;
    }
    off();
    assert.deepEqual(heard, [{ type: 'app.command', command: 'undo' }]);
    assert.equal(warnings.length, 1, 'the malformed event was reported');
  });

  it('rejects a malformed result on the page side instead of handing it to the UI', async () => {
    let answer = '';
    const listeners = new Set<(text: string) => void>();
    const page = hostFromBridge({
      send: (text) => {
        const { id } = JSON.parse(text);
        answer = JSON.stringify({ kind: 'result', id, result: { transport: 'carrier-pigeon' } });
        queueMicrotask(() => {
          for (const l of listeners) l(answer);
        });
      },
      onMessage: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    });
    await assert.rejects(page.hostInfo({}), (e: unknown) => {
      assert.ok(e instanceof HostError);
      assert.equal(e.code, 'internal');
      assert.match(e.message, /malformed answer from host: hostInfo result\.transport/);
      return true;
    });
  });

  it('stops forwarding events once the window is gone', async () => {
    sent = [];
    destroyed = true;
    host.sendAppCommand('save');
    await new Promise((r) => setTimeout(r, 10));
    destroyed = false;
    assert.deepEqual(sent, []);
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
