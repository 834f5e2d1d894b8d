/**
 * What the desktop app remembers between starts (electron-store, in the user-data folder), with a
 * declared JSON schema (store-schema.ts): a hand-edited or corrupt file never feeds the app
 * nonsense (electron-store validates every write; an invalid file is cleared at load).
 */
import Store from 'electron-store';
import { DEFAULTS, STORE_SCHEMA, withRecent, type StoreShape } from './store-schema.ts';
import { checkedSettings, type SettingsStore } from '../engine/host/node/settings-store.ts';

export * from './store-schema.ts';

export type AppStore = Store<StoreShape>;

export function openStore(): AppStore {
  const options = {
    name: 'weir-settings',
    schema: STORE_SCHEMA as never,
    defaults: DEFAULTS,
    clearInvalidConfig: true,
  };
  try {
    return new Store<StoreShape>(options);
  } catch {
    // A file that fails the schema: start from defaults rather than refusing to start.
    const store = new Store<StoreShape>({ ...options, name: 'weir-settings-recovered' });
    store.clear();
    return store;
  }
}

/** The host's settings (`getSettings`/`setSettings`) kept in this store, checked on the way out. */
export function hostSettingsOf(store: AppStore): SettingsStore {
  return {
    load: () => checkedSettings({ flink: store.get('flink') }),
    save: (s) => store.set('flink', s.flink),
  };
}

export function rememberRecent(store: AppStore, path: string): void {
  store.set('recentFiles', withRecent(store.get('recentFiles'), path));
}
