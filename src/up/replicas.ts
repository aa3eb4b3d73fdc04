// Several API servers, controller managers and schedulers in one `kubelite up` (--apiservers N,
// --controller-manager-replicas, --scheduler-replicas). The API servers share etcd (lmdb and
// memory storage belong to one process) and one port, each on its own loopback address
// 127.0.0.1, 127.0.0.2, ... (Linux routes all of 127.0.0.0/8 to the loopback interface), as
// kube-apiservers on several machines share a port: each advertises its address, and the
// `kubernetes` Service's endpoints list every live one. The kubeconfig points at the first.
// Replicas of the controller manager and of the scheduler run in leader election: one leads, the
// others stand by, each talking to its own API server in turn so that losing one API server does
// not take every replica's connection with it.

export interface Replicas {
  apiservers: number;
  controllerManagers: number;
  schedulers: number;
}

/** Why these replica counts cannot run ('' when they can). */
export function replicasProblem(r: Replicas, storage: string, bindAddress: string): string {
  for (const [flag, n] of [['--apiservers', r.apiservers], ['--controller-manager-replicas', r.controllerManagers], ['--scheduler-replicas', r.schedulers]] as const) {
    if (!Number.isInteger(n) || n < 1) return `${flag} must be 1 or more`;
  }
  if (r.apiservers === 1) return '';
  if (storage !== 'etcd') return 'several API servers share one etcd: --apiservers needs --storage etcd';
  const octets = ipv4Loopback(bindAddress);
  if (!octets) return 'several API servers on one host each take a loopback address: --apiservers needs a 127.x.y.z --bind-address';
  if (octets[3]! + r.apiservers - 1 > 254) return `--bind-address ${bindAddress} leaves no room for ${r.apiservers} consecutive addresses`;
  return '';
}

function ipv4Loopback(ip: string): number[] | undefined {
  const m = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return undefined;
  const octets = [127, ...m.slice(1).map(Number)];
  return octets.every((o) => o <= 255) ? octets : undefined;
}

/** The API servers' addresses: the bind address, then the next ones (one server: the bind address alone). */
export function apiserverAddresses(bindAddress: string, count: number): string[] {
  if (count === 1) return [bindAddress];
  const [a, b, c, d] = ipv4Loopback(bindAddress)!;
  return Array.from({ length: count }, (_, i) => `${a}.${b}.${c}.${d! + i}`);
}

/** A component's name: the first replica keeps the plain name, the others are numbered from 2. */
export function replicaName(component: string, index: number): string {
  return index === 0 ? component : `${component}-${index + 1}`;
}
