// The watch cache: see cacher.ts for the design and types.ts for what callers receive.
export { Cacher, type CacherMetrics, type CacherOptions } from './cacher.js';
export { ResourceCache, type ResourceConfig } from './resource-cache.js';
export {
  CacheError,
  DEFAULT_WINDOW,
  isCacheError,
  jsonLength,
  type BookmarkEvent,
  type CachedObject,
  type CacheErrorCode,
  type CacheWatch,
  type ErrorEvent,
  type ListOptions,
  type ListResult,
  type Materialize,
  type ObjectEvent,
  type ObjectEventType,
  type ObjectFilter,
  type ResourceCacheMetrics,
  type WatchCacheEvent,
  type WatchCacheEventType,
  type WatchOptions,
  type WindowOptions,
} from './types.js';
export { forEachRange, joinParts, partsOf, partsPieces, partsStartWith, type JsonParts } from './json-parts.js';
