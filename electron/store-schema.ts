/**
 * The shape, defaults and JSON schema of what the desktop app remembers (electron/store.ts), kept
 * free of Electron so tests can check them with the same validator electron-store uses (ajv).
 */
import { DEFAULT_FLINK_SETTINGS, FLINK_VERSIONS, type FlinkSettings } from '../engine/host/common/flink-schemas.ts';

export interface WindowBounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export interface AppSettings {
  /** Folder for new documents and example copies; '' = `<Documents>/Weir`. */
  workspace: string;
  defaultStateBackend: 'memory' | 'fs' | 'rocksdb';
  theme: 'system' | 'light' | 'dark';
}

export interface StoreShape {
  settings: AppSettings;
  /** Run on Flink's choices, as the host API's getSettings answers them (checked again there). */
  flink: FlinkSettings;
  recentFiles: string[];
  windowBounds: WindowBounds;
}

export const MAX_RECENT = 10;

export const DEFAULTS: StoreShape = {
  settings: { workspace: '', defaultStateBackend: 'fs', theme: 'system' },
  flink: DEFAULT_FLINK_SETTINGS,
  recentFiles: [],
  windowBounds: { width: 1280, height: 820, maximized: false },
};

export const STORE_SCHEMA = {
  settings: {
    type: 'object',
    additionalProperties: false,
    properties: {
      workspace: { type: 'string', maxLength: 4096 },
      defaultStateBackend: { enum: ['memory', 'fs', 'rocksdb'] },
      theme: { enum: ['system', 'light', 'dark'] },
    },
    required: ['workspace', 'defaultStateBackend', 'theme'],
    default: DEFAULTS.settings,
  },
  flink: {
    type: 'object',
    additionalProperties: false,
    properties: {
      target: { enum: ['local', 'gateway'] },
      gatewayUrl: { type: 'string', maxLength: 2000 },
      flinkVersion: { enum: [...FLINK_VERSIONS] },
      parallelism: { type: 'integer', minimum: 1, maximum: 64 },
    },
    required: ['target', 'gatewayUrl', 'flinkVersion', 'parallelism'],
    default: DEFAULTS.flink,
  },
  recentFiles: {
    type: 'array',
    items: { type: 'string', maxLength: 4096 },
    maxItems: MAX_RECENT,
    default: [],
  },
  windowBounds: {
    type: 'object',
    additionalProperties: false,
    properties: {
      x: { type: 'integer' },
      y: { type: 'integer' },
      width: { type: 'integer', minimum: 400, maximum: 100000 },
      height: { type: 'integer', minimum: 300, maximum: 100000 },
      maximized: { type: 'boolean' },
    },
    required: ['width', 'height', 'maximized'],
    default: DEFAULTS.windowBounds,
  },
} as const;

/** Most recent first, no duplicates, at most MAX_RECENT. */
export function withRecent(list: readonly string[], path: string): string[] {
  return [path, ...list.filter((p) => p !== path)].slice(0, MAX_RECENT);
}

export function clampBounds(b: WindowBounds): WindowBounds {
  const width = Math.min(Math.max(Math.round(b.width), 400), 100000);
  const height = Math.min(Math.max(Math.round(b.height), 300), 100000);
  return {
    ...b,
    width,
    height,
    ...(b.x !== undefined ? { x: Math.round(b.x) } : {}),
    ...(b.y !== undefined ? { y: Math.round(b.y) } : {}),
  };
}
