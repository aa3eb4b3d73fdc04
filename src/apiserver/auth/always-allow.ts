// --authorization-mode=AlwaysAllow: every request is allowed (kube-apiserver's AlwaysAllow).
import type { Authorizer } from './types.js';

export const alwaysAllow: Authorizer = {
  authorize: () => ({ decision: 'allow', reason: '' }),
};
