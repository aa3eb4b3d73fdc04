// The modules of the policy kinds.
import type { KindModule } from '../../kind-module.js';
import { podDisruptionBudgetModule } from './poddisruptionbudget.js';

export const policyModules: readonly KindModule[] = [podDisruptionBudgetModule];
