// /configz: the node's configuration as a KubeletConfiguration (kubelet.config.k8s.io/v1beta1),
// the fields a simulated node has, with the values it runs with (its flags) and the kubelet's
// defaults for the rest it honours.
import type { AddressInfo } from 'node:net';
import type { KubeletHost } from './host.js';

const duration = (ms: number): string => (ms % 60_000 === 0 ? `${ms / 60_000}m0s` : ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`);

export function kubeletConfiguration(host: KubeletHost, node: string, address: AddressInfo): Record<string, unknown> {
  const o = host.opts;
  return {
    kind: 'KubeletConfiguration',
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    enableServer: true,
    address: address.address,
    port: address.port,
    authentication: { x509: { clientCAFile: 'configured' }, webhook: { enabled: true, cacheTTL: '2m0s' }, anonymous: { enabled: false } },
    authorization: { mode: 'Webhook', webhook: { cacheAuthorizedTTL: '5m0s', cacheUnauthorizedTTL: '30s' } },
    nodeStatusUpdateFrequency: duration(o.statusUpdateFrequencyMs ?? 10_000),
    nodeStatusReportFrequency: duration(o.statusReportFrequencyMs ?? 300_000),
    nodeLeaseDurationSeconds: o.leaseDurationSeconds ?? 40,
    maxPods: o.pods ?? 110,
    containerLogMaxSize: '1Mi',
    containerLogMaxFiles: 2,
    containerRuntimeEndpoint: 'kubelite://simulated',
    enableDebuggingHandlers: true,
    enableSystemLogHandler: true,
    featureGates: { KubeletFineGrainedAuthz: true },
    providerID: `kubelite://${node}`,
  };
}
