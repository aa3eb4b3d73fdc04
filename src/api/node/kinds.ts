// node.k8s.io/v1 RuntimeClass (cluster-scoped). SetObjectDefaults_RuntimeClass: the overhead's
// quantities are rounded up to milli precision (SetDefaults_ResourceList).
import { defaultResourceList } from '../core/v1/defaults.js';
import { isObj } from '../go-json.js';
import type { KindVersion, KubeObject } from '../schema/kind.js';
import * as v1 from './v1.js';

export function defaultRuntimeClass(obj: KubeObject): void {
  if (isObj(obj.overhead)) defaultResourceList(obj.overhead.podFixed);
}

export const nodeKinds: readonly KindVersion[] = [
  { group: 'node.k8s.io', version: 'v1', kind: 'RuntimeClass', resource: 'runtimeclasses', singular: 'runtimeclass', namespaced: false, type: v1.RuntimeClass, list: v1.RuntimeClassList, storage: true, defaults: defaultRuntimeClass },
];
