/**
 * Electron security checklist, "handle session permission requests": Weir's page needs no
 * permission at all (camera, notifications, clipboard-read, HID, serial, ...), so every request is
 * refused and every synchronous check answers false. Both handlers are needed: Chromium asks the
 * check handler (`navigator.permissions.query`, some APIs) without ever calling the request one.
 */
export interface PermissionSession {
  setPermissionRequestHandler(
    handler: ((wc: unknown, permission: string, callback: (granted: boolean) => void) => void) | null,
  ): void;
  setPermissionCheckHandler(handler: ((wc: unknown, permission: string) => boolean) | null): void;
  setDevicePermissionHandler?(handler: ((details: unknown) => boolean) | null): void;
}

export function denyAllPermissions(session: PermissionSession): void {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler?.(() => false);
}
