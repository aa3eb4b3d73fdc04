// Kubernetes' deployment rollback.go: the deprecated spec.rollbackTo (its annotation on apps/v1
// objects) puts the template of the asked revision (0: the last one) back into the Deployment,
// with that replica set's annotations, and clears the request.
import type { KubeObject } from '../../client/types.js';
import { meta } from '../common/objects.js';
import { ROLLBACK_DONE, ROLLBACK_REVISION_NOT_FOUND, ROLLBACK_TEMPLATE_UNCHANGED } from './conditions.js';
import type { SyncContext } from './context.js';
import { DEPRECATED_ROLLBACK_TO, REVISION_ANNOTATION, annotations, getRollbackTo, lastRevision, setDeploymentAnnotationsTo } from './revisions.js';
import { dSpec } from './spec.js';
import { getAllReplicaSetsAndSyncRevision, updateDeployment } from './sync.js';
import { equalIgnoreHash, setFromReplicaSetTemplate } from './templates.js';

export async function rollback(s: SyncContext, d: KubeObject, rsList: KubeObject[]): Promise<void> {
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
    const v = annotations(rs)[REVISION_ANNOTATION];
    if (v === undefined || !/^-?\d+$/.test(v) || Number(v) !== to) continue;
    let performed = false;
    if (!equalIgnoreHash(dSpec(d).template, (rs.spec as { template?: KubeObject }).template)) {
      setFromReplicaSetTemplate(d, (rs.spec as { template?: KubeObject }).template);
      setDeploymentAnnotationsTo(d, rs);
      performed = true;
    } else {
      s.recorder.event(d, 'Warning', ROLLBACK_TEMPLATE_UNCHANGED, `The rollback revision contains the same template as current deployment "${meta(d).name}"`);
    }
    await updateDeploymentAndClearRollbackTo(s, d);
    if (performed) s.recorder.event(d, 'Normal', ROLLBACK_DONE, `Rolled back deployment "${meta(d).name}" to revision ${to}`);
    return;
  }
  s.recorder.event(d, 'Warning', ROLLBACK_REVISION_NOT_FOUND, 'Unable to find the revision to rollback to.');
  return updateDeploymentAndClearRollbackTo(s, d);
}

async function updateDeploymentAndClearRollbackTo(s: SyncContext, d: KubeObject): Promise<void> {
  const m = d.metadata as Record<string, unknown>;
  const ann = { ...((m.annotations as Record<string, string> | undefined) ?? {}) };
  delete ann[DEPRECATED_ROLLBACK_TO];
  m.annotations = ann;
  await updateDeployment(s, d);
}
