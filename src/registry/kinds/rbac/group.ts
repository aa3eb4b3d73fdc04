// What the four rbac.authorization.k8s.io kinds share: the group's name, and names that are path
// segments (ValidateRBACName) rather than DNS names, so `system:foo` is a valid role name.
import { isValidPathSegmentName, type NameValidator } from '../../../machinery/validation/names.js';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

const rbacName: NameValidator = (name) => isValidPathSegmentName(name);

/** The strategy fields every RBAC kind has: no status, no generation, path-segment names. */
export const rbacStrategyBase = { hasStatus: false, tracksGeneration: false, nameValidator: rbacName } as const;
