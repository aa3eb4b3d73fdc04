// Kubernetes' deployment rollback.go: the deprecated spec.rollbackTo (its annotation on apps/v1
// objects) puts the template of the asked revision (0: the last one) back into the Deployment,
// with that replica set's annotations, and clears the request.
import { annotationsOf, nameOf } from '../../api/meta/object.js';
import type { Deployment, ReplicaSet } from '../../api/types.js';
import { ROLLBACK_DONE, ROLLBACK_REVISION_NOT_FOUND, ROLLBACK_TEMPLATE_UNCHANGED } from './conditions.js';
import type { SyncContext } from './context.js';
import { DEPRECATED_ROLLBACK_TO, REVISION_ANNOTATION, getRollbackTo, lastRevision, setDeploymentAnnotationsTo } from './revisions.js';
import { dSpec } from './spec.js';
import { getAllReplicaSetsAndSyncRevision, updateDeployment } from './sync.js';
import { equalIgnoreHash, setFromReplicaSetTemplate } from './templates.js';

export async function rollback(s: SyncContext, d: Deployment, rsList: ReplicaSet[]): Promise<void> {
  const { newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(s, d, rsList, true);
  const allRSs = [...oldRSs, ...(newRS ? [newRS] : [])];
  let to = getRollbackTo(d)!;
  if (to === 0) {
    to = lastRevision(allRSs);
    if (to === 0) {
      s.recorder.event(d, 'Warning', ROLLBACK_REVISION_NOT_FOUND, 'Unable to find last revision.');
      return updateDeploymentAndClearRollbackTo(s, d);
    }
  }
  for (const rs of allRSs) {
    const v = annotationsOf(rs)[REVISION_ANNOTATION];
    if (v === undefined || !/^-?\d+$/.test(v) || Number(v) !== to) continue;
    let performed = false;
    if (!equalIgnoreHash(dSpec(d).template, rs.spec?.template)) {
      setFromReplicaSetTemplate(d, rs.spec?.template);
      setDeploymentAnnotationsTo(d, rs);
      performed = true;
    } else {
      s.recorder.event(d, 'Warning', ROLLBACK_TEMPLATE_UNCHANGED, `The rollback revision contains the same template as current deployment "${nameOf(d)}"`);
    }
    await updateDeploymentAndClearRollbackTo(s, d);
    if (performed) s.recorder.event(d, 'Normal', ROLLBACK_DONE, `Rolled back deployment "${nameOf(d)}" to revision ${to}`);
    return;
  }
  s.recorder.event(d, 'Warning', ROLLBACK_REVISION_NOT_FOUND, 'Unable to find the revision to rollback to.');
  return updateDeploymentAndClearRollbackTo(s, d);
}

async function updateDeploymentAndClearRollbackTo(s: SyncContext, d: Deployment): Promise<void> {
  const m = (d.metadata ??= {});
  const ann = { ...(m.annotations ?? {}) };
  delete ann[DEPRECATED_ROLLBACK_TO];
  m.annotations = ann;
  await updateDeployment(s, d);
}
