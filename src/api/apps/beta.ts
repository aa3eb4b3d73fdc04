// Struct differences that apps/v1beta1 and extensions/v1beta1 share relative to apps/v1, applied
// to a VersionDeriver of either package.
import { LabelSelector } from '../meta/v1.js';
import type { VersionDeriver } from '../schema/derive.js';
import { field, type StructType } from '../schema/dsl.js';
import * as v1 from './v1.js';

/** `selector` as the beta versions declare it: `json:"selector,omitempty"`, +optional (defaulted from the template labels). */
export const optionalSelector = (tag: number) => field(LabelSelector, tag, { pointer: true });

/** DeploymentSpec with an optional selector and the deprecated `rollbackTo` (field 8, before progressDeadlineSeconds). */
export function deriveDeploymentSpecWithRollback<R extends StructType>(d: VersionDeriver, rollbackConfig: R) {
  return d.struct(v1.DeploymentSpec, {
    add: { selector: optionalSelector(2), rollbackTo: field(rollbackConfig, 8, { pointer: true }) },
    order: [
      'replicas',
      'selector',
      'template',
      'strategy',
      'minReadySeconds',
      'revisionHistoryLimit',
      'paused',
      'rollbackTo',
      'progressDeadlineSeconds',
    ],
  });
}
