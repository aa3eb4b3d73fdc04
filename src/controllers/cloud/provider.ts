// The cloud behind the cloud controllers. Kubernetes runs them only with a cloud provider; kubelite
// has one for tests, `--cloud-provider=kubelite`: a simulated cloud whose load balancers take
// addresses from a range, whose routes are a table, and whose instances are the Nodes unless a
// Node is annotated `kubelite.dev/cloud-instance: terminated` (the instance is gone) or `shutdown`.
// `--cloud-config` names a YAML file: `loadBalancerIPRange: 172.18.255.0/24`.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { annotationOf } from '../../api/meta/object.js';
import type { Node } from '../../api/types.js';

export const CLOUD_INSTANCE_ANNOTATION = 'kubelite.dev/cloud-instance';
export const DEFAULT_LOAD_BALANCER_RANGE = '172.18.255.0/24';

export interface CloudConfig {
  loadBalancerIPRange: string;
}

function ipv4Range(cidr: string): { base: number; size: number } {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(cidr.trim());
  if (!m || m.slice(1, 5).some((o) => Number(o) > 255) || Number(m[5]) > 30 || Number(m[5]) < 8) throw new Error(`loadBalancerIPRange: ${JSON.stringify(cidr)} is not an IPv4 CIDR between /8 and /30`);
  const size = 2 ** (32 - Number(m[5]));
  const ip = m.slice(1, 5).reduce((n, o) => n * 256 + Number(o), 0);
  return { base: ip - (ip % size), size };
}

const ipText = (n: number): string => [Math.floor(n / 2 ** 24) % 256, Math.floor(n / 2 ** 16) % 256, Math.floor(n / 256) % 256, n % 256].join('.');

/** The simulated cloud: load balancer addresses (first and last of the range excluded) and routes. */
export class KubeliteCloud {
  private readonly range: { base: number; size: number };
  /** Load balancer address by service key. */
  private readonly balancers = new Map<string, string>();
  /** Route by node name: its pod CIDR. */
  readonly routes = new Map<string, string>();

  constructor(config: CloudConfig) {
    this.range = ipv4Range(config.loadBalancerIPRange);
  }

  /** EnsureLoadBalancer: the service's address (kept when it already has one in the range). */
  ensureLoadBalancer(service: string, current?: string): string {
    const existing = this.balancers.get(service);
    if (existing) return existing;
    const used = new Set(this.balancers.values());
    if (current && this.contains(current) && !used.has(current)) {
      this.balancers.set(service, current);
      return current;
    }
    for (let i = 1; i < this.range.size - 1; i++) {
      const ip = ipText(this.range.base + i);
      if (!used.has(ip)) {
        this.balancers.set(service, ip);
        return ip;
      }
    }
    throw new Error(`no load balancer address left in ${ipText(this.range.base)}/${32 - Math.log2(this.range.size)}`);
  }

  ensureLoadBalancerDeleted(service: string): void {
    this.balancers.delete(service);
  }

  private contains(ip: string): boolean {
    const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
    if (!m) return false;
    const n = m.slice(1).reduce((a, o) => a * 256 + Number(o), 0);
    return n > this.range.base && n < this.range.base + this.range.size - 1;
  }

  /** InstanceExists / InstanceShutdown, from the Node's annotation. */
  instanceState(node: Node): 'running' | 'shutdown' | 'terminated' {
    const v = annotationOf(node, CLOUD_INSTANCE_ANNOTATION);
    return v === 'terminated' ? 'terminated' : v === 'shutdown' ? 'shutdown' : 'running';
  }
}

/** The cloud `--cloud-provider` names (undefined: none), or an error naming what is wrong. */
export function cloudOf(o: Readonly<Record<string, unknown>>): KubeliteCloud | undefined {
  const provider = typeof o.cloudProvider === 'string' ? o.cloudProvider : '';
  if (provider === '') return undefined;
  if (provider !== 'kubelite') throw new Error(`cloud provider could not be initialized: could not init cloud provider ${JSON.stringify(provider)}: unknown cloud provider ${JSON.stringify(provider)}`);
  const file = typeof o.cloudConfig === 'string' ? o.cloudConfig : '';
  let config: CloudConfig = { loadBalancerIPRange: DEFAULT_LOAD_BALANCER_RANGE };
  if (file !== '') {
    let parsed: unknown;
    try {
      parsed = parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new Error(`--cloud-config: ${(err as Error).message}`);
    }
    const range = (parsed as { loadBalancerIPRange?: unknown } | null)?.loadBalancerIPRange;
    if (range !== undefined && typeof range !== 'string') throw new Error('--cloud-config: loadBalancerIPRange must be a string');
    if (range !== undefined) config = { loadBalancerIPRange: range };
  }
  return new KubeliteCloud(config);
}

/** One cloud per controller manager, shared by its cloud controllers. */
const clouds = new WeakMap<object, KubeliteCloud | undefined>();
export function sharedCloud(options: Readonly<Record<string, unknown>>): KubeliteCloud | undefined {
  if (!clouds.has(options)) clouds.set(options, cloudOf(options));
  return clouds.get(options);
}
