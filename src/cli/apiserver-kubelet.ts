// The flags of `kubelite apiserver` that say how it reaches kubelets (pods/log and the proxies):
// kube-apiserver's --kubelet-client-certificate/--kubelet-client-key (the certificate it presents,
// kubeadm's CN kube-apiserver-kubelet-client in system:masters), --kubelet-certificate-authority
// (verifies the kubelets' serving certificates) and --kubelet-preferred-address-types, and
// kubelite's --kubelet-address-override: the host to dial for every node, the node then named in
// the path, for simulated nodes whose addresses do not exist (src/apiserver/proxy/kubelet-client.ts).
import { readFileSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';
import type { KubeletClientOptions } from '../apiserver/proxy/kubelet-client.js';
import { parseLoopbackCIDR } from '../nodes/process/loopback-ips.js';

export interface KubeletFlags {
  kubeletClientCertificate?: string;
  kubeletClientKey?: string;
  kubeletCertificateAuthority?: string;
  kubeletPreferredAddressTypes?: string[];
  kubeletAddressOverride?: string;
  processPodCidr?: { base: number; size: number };
}

export const KUBELET_FLAGS: ReadonlyArray<[flag: string, help: string, parse?: (v: string) => unknown]> = [
  ['--kubelet-client-certificate <file>', 'PEM client certificate the API server presents to kubelets'],
  ['--kubelet-client-key <file>', 'PEM private key of --kubelet-client-certificate'],
  ['--kubelet-certificate-authority <file>', 'PEM CA that verifies the kubelets\' serving certificates (default: not verified)'],
  ['--kubelet-preferred-address-types <list>', 'node address types to reach a kubelet by, in order (default Hostname,InternalDNS,InternalIP,ExternalDNS,ExternalIP)', (v) => v.split(',').map((s) => s.trim()).filter((s) => s !== '')],
  ['--process-pod-cidr <cidr>', 'a loopback range (127.x.0.0/16 to /24) whose addresses Endpoints and EndpointSlices accept: the pod IPs of `kubelite nodes --runtime process` (`kubelite up --runtime process` passes it)', (v) => {
    const range = parseLoopbackCIDR(v);
    if (!range) throw new InvalidArgumentError('must be a loopback range 127.x.0.0/16 to /24');
    return range;
  }],
  ['--kubelet-address-override <host>', 'dial this host for every node\'s kubelet, naming the node in the path (simulated nodes served by one `kubelite nodes` listener; `kubelite up` passes 127.0.0.1)'],
];

function read(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`${flag}: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

export function kubeletClientOptions(o: KubeletFlags): KubeletClientOptions {
  if ((o.kubeletClientCertificate === undefined) !== (o.kubeletClientKey === undefined)) throw new Error('--kubelet-client-certificate and --kubelet-client-key go together');
  return {
    ...(o.kubeletClientCertificate !== undefined ? { clientCert: read('--kubelet-client-certificate', o.kubeletClientCertificate) } : {}),
    ...(o.kubeletClientKey !== undefined ? { clientKey: read('--kubelet-client-key', o.kubeletClientKey) } : {}),
    ...(o.kubeletCertificateAuthority !== undefined ? { ca: read('--kubelet-certificate-authority', o.kubeletCertificateAuthority) } : {}),
    ...(o.kubeletPreferredAddressTypes !== undefined ? { preferredAddressTypes: o.kubeletPreferredAddressTypes } : {}),
    ...(o.kubeletAddressOverride !== undefined ? { addressOverride: o.kubeletAddressOverride } : {}),
  };
}
