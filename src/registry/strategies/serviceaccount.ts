// ServiceAccount: ValidateServiceAccount is ObjectMeta only.
import type { ResourceStrategy } from '../strategy.js';

export const serviceAccountStrategy: ResourceStrategy = {
  hasStatus: false,
  tracksGeneration: false,
  validate: () => [],
  validateUpdate: () => [],
};
