/**
 * Where a host keeps the app's settings between starts (`getSettings` / `setSettings`). Electron
 * passes one over electron-store (electron/settings.ts); `weir serve` keeps them in a JSON file in
 * its workspace; tests and embedders get memory. Whatever is read is checked against the schema:
 * a hand-edited or corrupt file gives the defaults, never nonsense.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DEFAULT_FLINK_SETTINGS, hostSettingsSchema, type HostSettings } from '../common/flink-schemas.ts';

export interface SettingsStore {
  load(): HostSettings;
  save(settings: HostSettings): void;
}

export const DEFAULT_SETTINGS: HostSettings = { flink: DEFAULT_FLINK_SETTINGS };

/** Anything read back, checked: the stored value, or the defaults where it does not fit. */
export function checkedSettings(value: unknown): HostSettings {
  const r = hostSettingsSchema.safeParse(value);
  return r.success ? r.data : structuredClone(DEFAULT_SETTINGS);
}

export function memorySettingsStore(initial: HostSettings = DEFAULT_SETTINGS): SettingsStore {
  let current = structuredClone(initial);
  return {
    load: () => structuredClone(current),
    save: (s) => {
      current = structuredClone(s);
    },
  };
}

/** A JSON file, written whole through a temporary file and a rename (never half written). */
export function fileSettingsStore(file: string): SettingsStore {
  return {
    load() {
      try {
        return checkedSettings(JSON.parse(readFileSync(file, 'utf8')));
      } catch {
        return structuredClone(DEFAULT_SETTINGS);
      }
    },
    save(s) {
      mkdirSync(dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, `${JSON.stringify(s, null, 2)}\n`);
      renameSync(tmp, file);
    },
  };
}
