// apiregistration.k8s.io/v1 APIService (cluster-scoped, status subresource). The
// API server lists one per group/version it serves itself (see apiserver/apiservices.ts).
import type { KindVersion, KubeObject } from '../schema/kind.js';
import * as v1 from './v1.js';

/** SetDefaults_ServiceReference: an aggregated server is reached on port 443 unless told otherwise. */
export function defaultAPIService(obj: KubeObject): void {
  const spec = obj.spec as KubeObject | undefined;
  const service = spec?.service as KubeObject | null | undefined;
  if (service && typeof service === 'object' && (service.port === undefined || service.port === null)) service.port = 443;
}

export const apiregistrationKinds: readonly KindVersion[] = [
  { group: 'apiregistration.k8s.io', version: 'v1', kind: 'APIService', resource: 'apiservices', singular: 'apiservice', categories: ['api-extensions'], namespaced: false, type: v1.APIService, list: v1.APIServiceList, storage: true, defaults: defaultAPIService, subresources: { status: true } },
];
