// The simulated nodes themselves: each one's name, addresses and client, and the state its
// registration and heartbeats keep (heartbeats.ts) and its pods read (pod-lifecycle.ts).
import type { TimerHandle } from '../client/clock.js';
import type { Clientset } from '../client/types.js';
import type { NodeAgentOptions } from './options.js';

// kubelet's registerWithAPIServer retries 100 ms, 200 ms, ... up to 7 s: started together with the
// API server (as `kubelite up` does), a node registers as soon as the server answers.
export const REGISTER_BACKOFF_MIN_MS = 100;
export const REGISTER_BACKOFF_MAX_MS = 7000;

export interface SimNode {
  name: string;
  /** What this node writes through (its own identity). */
  client: Clientset;
  index: number;
  ip: string;
  podCIDR: string;
  /** Its IPv6 pod CIDR when nodeipam gave it one too (dual-stack); '' otherwise. */
  podCIDRv6: string;
  zone: string;
  /** 'ok': heartbeating; 'notready': Ready=False, no heartbeats; 'gone': deleted. */
  mode: 'ok' | 'notready' | 'gone';
  registered: boolean;
  /** The wait before the next registration attempt after a failure (the kubelet's: 100 ms doubling to 7 s). */
  registerBackoffMs: number;
  /** NotReady from the command line (--unready-nodes), whatever its annotation says. */
  forcedNotReady: boolean;
  /** When this agent first reported the node (the pressure conditions' transition time). */
  registeredAt?: number;
  uid: string;
  /** Whether its lease and status loops run (from its first registration on). */
  loopsStarted: boolean;
  leaseTimer?: TimerHandle;
  statusTimer?: TimerHandle;
  lastStatusReport: number;
  readyTransition: number;
  lastReady: boolean | undefined;
  /** The API server's Node says other than this node last reported (someone else wrote its Ready). */
  statusStale?: boolean;
  /** The node's image cache: the references pulled, with their sizes (written through writableMap). */
  images: ReadonlyMap<string, number>;
  /** How many images its status last listed. */
  reportedImages?: number;
  /** The pressure conditions as the eviction manager last set them (absent: False since registration). */
  pressure: ReadonlyMap<string, PressureState>;
  /** When each pressure condition's threshold was last met. */
  pressureMetAt: ReadonlyMap<string, number>;
}

export interface PressureState {
  status: boolean;
  since: number;
}

interface NodeMaps {
  images: Map<string, number>;
  pressure: Map<string, PressureState>;
  pressureMetAt: Map<string, number>;
}

/** The empty map every node starts with: most nodes never pull an image nor meet a threshold (three Maps each: ~0.5 KB a node). */
const NONE: ReadonlyMap<string, never> = new Map<string, never>();

/** The node's map `field`, made on its first write. */
export function writableMap<F extends keyof NodeMaps>(node: SimNode, field: F): NodeMaps[F] {
  const maps = node as unknown as Record<F, ReadonlyMap<string, unknown>>;
  if (maps[field] === NONE) maps[field] = new Map();
  return maps[field] as NodeMaps[F];
}

function ipOf(index: number): string {
  return `10.0.${Math.floor(index / 250) % 256}.${(index % 250) + 2}`;
}

function podCIDROf(index: number): string {
  return `10.${64 + Math.floor(index / 256)}.${index % 256}.0/24`;
}

/** The nodes the options describe, by name, the unready ones (--unready-nodes) marked so. */
export function simNodes(opts: NodeAgentOptions): Map<string, SimNode> {
  const nodes = new Map<string, SimNode>();
  const n = opts.nodes ?? 3;
  const first = opts.firstIndex ?? 0;
  const prefix = opts.namePrefix ?? 'kubelite-node-';
  const zones = opts.zones && opts.zones.length > 0 ? opts.zones : [];
  const unready = new Set<string>();
  for (let i = 0; i < n; i++) {
    const index = first + i;
    const name = `${prefix}${index}`;
    nodes.set(name, {
      name,
      client: opts.nodeClientset?.(name) ?? opts.clientset,
      index,
      ip: ipOf(index),
      podCIDR: opts.registerPodCIDR === false ? '' : podCIDROf(index),
      podCIDRv6: '',
      zone: zones.length > 0 ? zones[i % zones.length]! : '',
      mode: 'ok',
      registered: false,
      registerBackoffMs: REGISTER_BACKOFF_MIN_MS,
      forcedNotReady: false,
      uid: '',
      loopsStarted: false,
      lastStatusReport: 0,
      readyTransition: 0,
      lastReady: undefined,
      images: NONE,
      pressure: NONE,
      pressureMetAt: NONE,
    });
  }
  if (typeof opts.unreadyNodes === 'number') [...nodes.keys()].slice(Math.max(0, n - opts.unreadyNodes)).forEach((k) => unready.add(k));
  else for (const k of opts.unreadyNodes ?? []) unready.add(k);
  for (const k of unready) {
    const node = nodes.get(k);
    if (node) {
      node.mode = 'notready';
      node.forcedNotReady = true;
    }
  }
  return nodes;
}
