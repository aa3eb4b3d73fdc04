// core/v1 ReplicationController: pkg/apis/core/validation ValidateReplicationController* and
// pkg/registry/core/replicationcontroller/strategy.go. Status is reset on create and kept on update,
// spec changes bump the generation (the store does all three for kinds with a status). Unlike a
// ReplicaSet's, the selector is a plain map (every key=value must be among the template's labels),
// it may change on update, and the template may only be absent to be reported as required.
import type { PodSpec, PodTemplateSpec, ReplicationController, ReplicationControllerSpec } from '../../../api/types.js';
import { child, index, num, optNum, stringMap, str, validateNonnegativeField, invalidStringMap } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { optStruct, struct, structs } from '../../../machinery/validation/structs.js';
import type { ResourceStrategy } from '../../strategy.js';
import { validatePodTemplateSpec } from '../../podspec/index.js';
import { podWarnings } from '../pod-template-warnings.js';
import { cloneJson } from '../../meta.js';
import type { KindModule } from '../../kind-module.js';
import { fieldAt, fieldLabelErrors, META_FIELD_LABELS } from '../../../machinery/selectors/index.js';
import { replicasScale } from '../../replicas-scale.js';
import { replicationControllerPrinter } from './replicationcontroller-printer.js';

/** ValidateReadOnlyPersistentDisks: a GCE PD is shared by more than one replica only read-only. */
function validateReadOnlyPersistentDisks(volumes: PodSpec['volumes'], path: string): FieldError[] {
  const errs: FieldError[] = [];
  structs(volumes).forEach((v, i) => {
    const disk = optStruct(v.gcePersistentDisk);
    if (disk && disk.readOnly !== true) {
      errs.push(
        fieldError.invalid(
          child(index(path, i), 'gcePersistentDisk', 'readOnly'),
          false,
          'must be true for replicated pods > 1; GCE PD can only be mounted on multiple machines if it is read-only',
        ),
      );
    }
  });
  return errs;
}

/** ValidatePodTemplateSpecForRC. */
function validatePodTemplateSpecForRC(template: PodTemplateSpec | null | undefined, selector: Record<string, string>, replicas: number, path: string): FieldError[] {
  const t = optStruct(template);
  if (!t) return [fieldError.required(path)];
  const errs: FieldError[] = [];
  const keys = Object.keys(selector);
  if (keys.length > 0) {
    const templateLabels = struct(t.metadata).labels;
    const labels = stringMap(templateLabels);
    if (!keys.every((k) => labels[k] === selector[k])) {
      errs.push(invalidStringMap(child(path, 'metadata', 'labels'), templateLabels, '`selector` does not match template `labels`'));
    }
  }
  errs.push(...validatePodTemplateSpec(t, path));
  const spec = struct(t.spec);
  if (replicas > 1) errs.push(...validateReadOnlyPersistentDisks(spec.volumes, child(path, 'spec', 'volumes')));
  if (str(spec.restartPolicy) !== 'Always') errs.push(fieldError.notSupported(child(path, 'spec', 'restartPolicy'), str(spec.restartPolicy), ['Always']));
  if (optNum(spec.activeDeadlineSeconds) !== undefined) {
    errs.push(fieldError.forbidden(child(path, 'spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in ReplicationController is not Supported'));
  }
  return errs;
}

/** ValidateReplicationControllerSpec. */
export function validateReplicationControllerSpec(spec: ReplicationControllerSpec, path = 'spec'): FieldError[] {
  const errs = validateNonnegativeField(num(spec.minReadySeconds), child(path, 'minReadySeconds'));
  const selector = stringMap(spec.selector);
  // ValidateNonEmptySelector.
  if (Object.keys(selector).length === 0) errs.push(fieldError.required(child(path, 'selector')));
  errs.push(...validateNonnegativeField(num(spec.replicas), child(path, 'replicas')));
  errs.push(...validatePodTemplateSpecForRC(spec.template, selector, num(spec.replicas), child(path, 'template')));
  return errs;
}

/** ValidateReplicationControllerStatus. */
export function validateReplicationControllerStatus(rc: ReplicationController): FieldError[] {
  const status = struct(rc.status);
  const errs: FieldError[] = [];
  for (const f of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'] as const) {
    errs.push(...validateNonnegativeField(num(status[f]), child('status', f)));
  }
  const msg = 'cannot be greater than status.replicas';
  for (const f of ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'] as const) {
    if (num(status[f]) > num(status.replicas)) errs.push(fieldError.invalid(child('status', f), num(status[f]), msg));
  }
  if (num(status.availableReplicas) > num(status.readyReplicas)) {
    errs.push(fieldError.invalid('status.availableReplicas', num(status.availableReplicas), 'cannot be greater than readyReplicas'));
  }
  return errs;
}

export const replicationControllerStrategy: ResourceStrategy<ReplicationController> = {
  hasStatus: true,
  tracksGeneration: true,
  warnings: (o) => {
    const template = optStruct(struct(o.spec).template);
    return template ? podWarnings(template, 'spec.template') : [];
  },
  prepareForUpdate(rc, old) {
    rc.status = cloneJson(old.status);
  },
  validate: (rc) => validateReplicationControllerSpec(struct(rc.spec)),
  validateUpdate: (rc) => validateReplicationControllerSpec(struct(rc.spec)),
  prepareForStatusUpdate(rc, old) {
    rc.spec = cloneJson(old.spec);
  },
  validateStatusUpdate: (rc) => validateReplicationControllerStatus(rc),
};

export const replicationControllerModule: KindModule = {
  group: '',
  kind: 'ReplicationController',
  strategy: replicationControllerStrategy,
  printer: replicationControllerPrinter,
  selectableFields: { 'status.replicas': fieldAt.int('status', 'replicas') },
  fieldLabels: () => ({ labels: [...META_FIELD_LABELS, 'status.replicas'], error: fieldLabelErrors.notSupported }),
  // Its selector is a plain map (labels.SelectorFromSet(...).String()).
  subresources: { scale: replicasScale((spec) => ({ matchLabels: spec.selector })) },
};
