// Admission as Kubernetes splits it (k8s.io/apiserver/pkg/admission): each plugin may mutate the
// object of a write (`admit`, all plugins' in order, before the strategy's validation) and/or refuse
// it (`validate`, all plugins' in order, after the strategy's validation, before the write).
import { generateNameOf, nameOf } from '../../api/meta/object.js';
import type { KindVersion, KubeObject } from '../../api/schema/kind.js';
import { apiError } from '../../registry/errors.js';
import type { StatusError } from '../../machinery/status.js';
import type { UserInfo } from '../auth/types.js';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

/** Kubernetes' admission.Attributes. Objects are in the storage version (JSON form). */
export interface AdmissionAttributes {
  operation: Operation;
  /** The storage version of the kind written. */
  kind: KindVersion;
  /** The served version the request came in (apps/v1beta2 deployments), when it is another than `kind`. */
  requestKind?: KindVersion;
  group: string;
  resource: string;
  subresource: string;
  /** The request's namespace ('' for cluster-scoped resources). */
  namespace: string;
  /** The name in the URL ('' on create: then the object's). */
  name: string;
  /** The new object (create, update); plugins may change it in `admit`. */
  object?: KubeObject;
  /** The current object (update, delete). */
  oldObject?: KubeObject;
  user: UserInfo;
  dryRun: boolean;
  /** The request's Warning headers: plugins add to it (ValidatingAdmissionPolicy's Warn action). */
  warnings?: string[];
}

export interface AdmissionPlugin {
  readonly name: string;
  admit?(a: AdmissionAttributes): void | Promise<void>;
  validate?(a: AdmissionAttributes): void | Promise<void>;
}

/**
 * Kubernetes' admission.NewForbidden: `<resource> "<name>" is forbidden: <why>`, the name being the
 * request's, else the object's name or generateName, else "Unknown".
 */
export function admissionForbidden(a: AdmissionAttributes, why: string, causes?: Array<{ reason: string; message: string; field: string }>): StatusError {
  let name = a.name;
  if (name === '' && a.object) name = nameOf(a.object) || generateNameOf(a.object);
  return apiError.forbidden({ group: a.group, resource: a.resource }, name === '' ? 'Unknown' : name, why, causes);
}
