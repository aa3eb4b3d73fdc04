// ServiceAccount: ValidateServiceAccount is ObjectMeta only.
import type { ResourceStrategy } from '../strategy.js';

export const serviceAccountStrategy: ResourceStrategy = {
  hasStatus: false,
  tracksGeneration: false,
  allowCreateOnUpdate: true,
  validate: () => [],
  validateUpdate: () => [],
};
