// discovery.k8s.io/v1 EndpointSlice. SetObjectDefaults_EndpointSlice: each port's name defaults
// to "" and its protocol to TCP (SetDefaults_EndpointPort).
import { isObj } from '../go-json.js';
import type { KindVersion, KubeObject } from '../schema/kind.js';
import * as v1 from './v1.js';

export function defaultEndpointSlice(obj: KubeObject): void {
  if (!Array.isArray(obj.ports)) return;
  for (const port of obj.ports) {
    if (!isObj(port)) continue;
    if (port.name === undefined || port.name === null) port.name = '';
    if (port.protocol === undefined || port.protocol === null) port.protocol = 'TCP';
  }
}

export const discoveryKinds: readonly KindVersion[] = [
  { group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice', resource: 'endpointslices', singular: 'endpointslice', namespaced: true, type: v1.EndpointSlice, list: v1.EndpointSliceList, storage: true, defaults: defaultEndpointSlice },
];
