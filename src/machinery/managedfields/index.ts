// managedFields: field ownership bookkeeping and server-side apply.
export { apply, kindFields, trackUpdate, MAX_UPDATE_MANAGERS, type Actor, type ApplyOptions, type ApplyResult, type KindFields } from './fieldmanager.js';
export { decodeManagedFields, encodeManagedFields, managerId, type Managed, type ManagerEntry } from './entries.js';
