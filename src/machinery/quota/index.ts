// Quota accounting shared by the ResourceQuota admission plugin and the resourcequota controller.
export { evaluatorFor, hasSpecificEvaluator, objectCountName, resourcesCountedBy, type Evaluator, type QuotaOperation } from './evaluators.js';
export { hardOf, quotaMatches, scopeRequirements, statusHardOf, usageOf, usedOf } from './quota.js';
export * from './resources.js';
export { podResources, type Part } from './pods.js';
