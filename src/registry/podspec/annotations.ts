// The pod annotations Kubernetes gives meaning to: mirror pods, the deletion cost, and the beta
// seccomp and AppArmor annotations (valid profiles, existing containers, agreement with the
// security context fields set beside them).
import type { Container, EphemeralContainer, PodSpec, SeccompProfile } from '../../api/types.js';
import { child, index, key, optStr, str, stringMap } from '../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import { goQuote } from '../../machinery/validation/go-syntax.js';
import { optStruct, struct, structs } from '../../machinery/validation/structs.js';
import type { PodValidationOptions } from './options.js';
import { validateLocalDescendingPath } from './paths.js';

const MaxInt32 = 2147483647;

/** The pod-specific annotations (mirror pods, deletion cost, seccomp/AppArmor beta annotations). */
export function validatePodSpecificAnnotations(annotations: unknown, spec: PodSpec, path: string, opts: PodValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const a = stringMap(annotations);
  const mirror = 'kubernetes.io/config.mirror';
  if (Object.prototype.hasOwnProperty.call(a, mirror) && str(spec.nodeName) === '') {
    errs.push(fieldError.invalid(key(path, mirror), a[mirror], 'must set spec.nodeName if mirror pod annotation is set'));
  }
  const cost = 'controller.kubernetes.io/pod-deletion-cost';
  if (!opts.allowInvalidPodDeletionCost && Object.prototype.hasOwnProperty.call(a, cost)) {
    const v = a[cost]!;
    if (!/^[+-]?\d+$/.test(v) || Number(v) > MaxInt32 || Number(v) < -MaxInt32 - 1) errs.push(fieldError.invalid(key(path, cost), v, 'must be a 32bit integer'));
  }
  const seccompProfile = (p: string, k: string) => {
    if (p === 'runtime/default' || p === 'docker/default' || p === 'unconfined') return;
    if (p.startsWith('localhost/')) errs.push(...validateLocalDescendingPath(p.slice('localhost/'.length), child(path, k)));
    else errs.push(fieldError.invalid(child(path, k), p, 'must be a valid seccomp profile'));
  };
  const podSeccomp = 'seccomp.security.alpha.kubernetes.io/pod';
  if (Object.prototype.hasOwnProperty.call(a, podSeccomp)) seccompProfile(a[podSeccomp]!, podSeccomp);
  for (const [k, v] of Object.entries(a)) if (k.startsWith('container.seccomp.security.alpha.kubernetes.io/')) seccompProfile(v, k);
  const apparmorPrefix = 'container.apparmor.security.beta.kubernetes.io/';
  const containerNames = new Set([...structs(spec.initContainers), ...structs(spec.containers), ...structs(spec.ephemeralContainers)].map((c) => str(c.name)));
  for (const [k, v] of Object.entries(a)) {
    if (!k.startsWith(apparmorPrefix)) continue;
    const name = k.slice(apparmorPrefix.length);
    if (!containerNames.has(name)) errs.push(fieldError.invalid(key(path, k), name, 'container not found'));
    if (v !== '' && v !== 'runtime/default' && v !== 'unconfined' && !v.startsWith('localhost/')) errs.push(fieldError.invalid(key(path, k), v, `invalid AppArmor profile name: ${goQuote(v)}`));
  }
  return errs;
}

/** validateSeccompAnnotationsAndFields: beta annotations and fields must agree where both are set. */
export function validateSeccompAnnotationsAndFields(annotations: Record<string, string>, spec: PodSpec, specPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const match = (annotation: string, field: SeccompProfile, p: string) => {
    const type = str(field.type);
    if (type === 'Unconfined' && annotation !== 'unconfined') errs.push(fieldError.forbidden(child(p, 'type'), 'seccomp type in annotation and field must match'));
    else if (type === 'RuntimeDefault' && annotation !== 'runtime/default' && annotation !== 'docker/default') errs.push(fieldError.forbidden(child(p, 'type'), 'seccomp type in annotation and field must match'));
    else if (type === 'Localhost') {
      if (!annotation.startsWith('localhost/')) errs.push(fieldError.forbidden(child(p, 'type'), 'seccomp type in annotation and field must match'));
      else if (optStr(field.localhostProfile) !== annotation.slice('localhost/'.length)) errs.push(fieldError.forbidden(child(p, 'localhostProfile'), 'seccomp profile in annotation and field must match'));
    }
  };
  const pod = optStruct(struct(spec.securityContext).seccompProfile);
  const podAnn = annotations['seccomp.security.alpha.kubernetes.io/pod'];
  if (pod && podAnn !== undefined) match(podAnn, pod, child(specPath, 'securityContext', 'seccompProfile'));
  const visit = (cs: readonly (Container | EphemeralContainer)[], field: 'initContainers' | 'containers' | 'ephemeralContainers') =>
    cs.forEach((c, i) => {
      const f = optStruct(struct(c.securityContext).seccompProfile);
      const ann = annotations[`container.seccomp.security.alpha.kubernetes.io/${str(c.name)}`];
      if (f && ann !== undefined) match(ann, f, child(index(child(specPath, field), i), 'securityContext', 'seccompProfile'));
    });
  visit(structs(spec.initContainers), 'initContainers');
  visit(structs(spec.containers), 'containers');
  visit(structs(spec.ephemeralContainers), 'ephemeralContainers');
  return errs;
}
