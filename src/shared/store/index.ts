/** The store layer: every storage key, typed records, the layout version and its migrations, coalesced writes. */
export { KEYS } from './keys';
export { MIGRATIONS, SCHEMA_VERSION, type Migration } from './migrations';
export { rollOff, type StoreRecord } from './record';
export * from './records';
export { drop, put, Store, storeOf, type Change, type StorageArea, type StorageChanges, type StoreOptions, type StoreOrArea, type StoreProblem } from './store';
