// The CustomResourceDefinition kind: Kubernetes' strategy (status reset on create with the storage
// version recorded in storedVersions, generation on spec changes, status through /status only),
// its validation (validation.ts, the schemas' content checked by `crdSchemaErrors`), and the
// first DELETE adding the cleanup finalizer (Kubernetes' CRD REST Delete), after which the API
// server's CRD controller deletes the custom resources and removes it.
import type { KubeObject } from '../../../api/schema/kind.js';
import { CUSTOM_RESOURCE_CLEANUP_FINALIZER } from '../../custom/crd.js';
import type { KindModule } from '../../kind-module.js';
import type { ResourceStrategy } from '../../strategy.js';
import { crdSchemaErrors } from './schema-errors.js';
import { validateCustomResourceDefinition } from './validation.js';
import { obj, type Obj } from '../../../machinery/validation/common.js';

/** Adds the storage version to status.storedVersions when it is not there yet. */
function recordStorageVersion(crd: KubeObject): void {
  const status = obj(crd.status);
  const stored = Array.isArray(status.storedVersions) ? (status.storedVersions as string[]) : [];
  for (const v of Array.isArray(obj(crd.spec).versions) ? (obj(crd.spec).versions as unknown[]) : []) {
    const version = obj(v);
    if (version.storage === true && typeof version.name === 'string' && !stored.includes(version.name)) stored.push(version.name);
  }
  crd.status = { ...status, storedVersions: stored };
}

export const crdStrategy: ResourceStrategy = {
  hasStatus: true,
  tracksGeneration: true,
  genericObjectMeta: true,
  prepareForCreate(crd) {
    crd.status = {};
    recordStorageVersion(crd);
  },
  prepareForUpdate(crd) {
    recordStorageVersion(crd);
  },
  validate: (crd) => validateCustomResourceDefinition(crd, undefined, crdSchemaErrors),
  validateUpdate: (crd, old) => validateCustomResourceDefinition(crd, old, crdSchemaErrors),
  prepareForStatusUpdate(crd, old) {
    // Status writes change the status (and the finalizers the CRD controller manages), nothing else.
    const m = obj(crd.metadata);
    const om = obj(old.metadata);
    crd.metadata = { ...m, labels: om.labels, annotations: om.annotations, ownerReferences: om.ownerReferences };
    for (const k of ['labels', 'annotations', 'ownerReferences']) if ((crd.metadata as Obj)[k] === undefined) delete (crd.metadata as Obj)[k];
  },
  validateStatusUpdate: () => [],
  beginDeletion(crd) {
    const m = obj(crd.metadata);
    const finalizers = Array.isArray(m.finalizers) ? (m.finalizers as string[]) : [];
    if (!finalizers.includes(CUSTOM_RESOURCE_CLEANUP_FINALIZER)) m.finalizers = [...finalizers, CUSTOM_RESOURCE_CLEANUP_FINALIZER];
  },
};

export const customResourceDefinitionModule: KindModule = {
  group: 'apiextensions.k8s.io',
  kind: 'CustomResourceDefinition',
  strategy: crdStrategy,
};
