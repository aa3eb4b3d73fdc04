// The strategy of a kind without rules of its own, derived from its schema: kinds with a status
// keep it out of the main resource, kinds with a spec and a status count generations. Specific
// kinds refine this in src/registry/strategies/.
import type { KindVersion } from '../api/schema/kind.js';
import type { ResourceStrategy } from './strategy.js';

export function genericStrategy(kind: KindVersion): ResourceStrategy {
  const hasStatus = 'status' in kind.type.fields;
  return {
    hasStatus,
    tracksGeneration: hasStatus && 'spec' in kind.type.fields,
    validate: () => [],
    validateUpdate: () => [],
  };
}
