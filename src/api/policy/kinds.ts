// The policy kinds: PodDisruptionBudget in policy/v1 (policy/v1beta1 is no longer served in 1.33).
import type { KindVersion } from '../schema/kind.js';
import * as v1 from './v1.js';

export const policyKinds: readonly KindVersion[] = [
  { group: 'policy', version: 'v1', kind: 'PodDisruptionBudget', resource: 'poddisruptionbudgets', singular: 'poddisruptionbudget', shortNames: ['pdb'], namespaced: true, type: v1.PodDisruptionBudget, list: v1.PodDisruptionBudgetList, storage: true, subresources: { status: true } },
];
