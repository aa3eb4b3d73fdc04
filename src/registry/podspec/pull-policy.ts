// The image pull policy, which containers and image volumes both carry.
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';

const supportedPullPolicies = ['Always', 'IfNotPresent', 'Never'];

export function validatePullPolicy(policy: string, path: string): FieldError[] {
  if (supportedPullPolicies.includes(policy)) return [];
  if (policy === '') return [fieldError.required(path)];
  return [fieldError.notSupported(path, policy, supportedPullPolicies)];
}
