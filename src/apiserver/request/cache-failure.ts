// A watch cache that cannot answer, as the Status Kubernetes gives: a resourceVersion the cache
// has not reached in time is 504 TooLargeResourceVersion, any other cache failure 503.
import { apiError } from '../../registry/errors.js';
import { isCacheError } from '../../storage/cacher/index.js';

export function cacheFailure(err: unknown): never {
  if (isCacheError(err) && err.code === 'TooLargeResourceVersion') throw apiError.tooLargeResourceVersion(err.message);
  if (isCacheError(err)) throw apiError.serviceUnavailable(err.message);
  throw err;
}
