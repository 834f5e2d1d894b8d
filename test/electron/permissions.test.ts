/** electron/permissions.ts: every permission request and check is refused (security checklist). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { denyAllPermissions, type PermissionSession } from '../../electron/permissions.ts';

function recordingSession() {
  const rec: {
    request?: Parameters<PermissionSession['setPermissionRequestHandler']>[0];
    check?: Parameters<PermissionSession['setPermissionCheckHandler']>[0];
    device?: unknown;
  } = {};
  const session: PermissionSession = {
    setPermissionRequestHandler: (h) => {
      rec.request = h;
    },
    setPermissionCheckHandler: (h) => {
      rec.check = h;
    },
    setDevicePermissionHandler: (h) => {
      rec.device = h;
    },
  };
  return { rec, session };
}

describe('denyAllPermissions', () => {
  it('refuses every permission request and answers every check with false', () => {
    const { rec, session } = recordingSession();
    denyAllPermissions(session);
    assert.ok(rec.request && rec.check && rec.device, 'request, check and device handlers are all installed');
    for (const p of [
      'media',
      'notifications',
      'clipboard-read',
      'geolocation',
      'hid',
      'serial',
      'openExternal',
      'fullscreen',
    ]) {
      let granted: boolean | null = null;
      rec.request(null, p, (g) => {
        granted = g;
      });
      assert.equal(granted, false, `request ${p}`);
      assert.equal(rec.check(null, p), false, `check ${p}`);
    }
    assert.equal((rec.device as (d: unknown) => boolean)({ deviceType: 'usb' }), false);
  });
});
