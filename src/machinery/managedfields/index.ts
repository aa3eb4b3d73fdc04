// managedFields: field ownership bookkeeping (Update entries) and server-side apply.
export { kindFields, type Actor, type KindFields } from './common.js';
export { trackUpdate, MAX_UPDATE_MANAGERS } from './update.js';
export { apply, type ApplyOptions, type ApplyResult } from './apply.js';
export { decodeManagedFields, encodeManagedFields, managerId, type Managed, type ManagerEntry } from './entries.js';
