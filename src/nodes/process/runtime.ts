// The process runtime (`kubelite nodes --runtime process`): the containers of the allow-list
// (host-command.ts) run as real child processes of the nodes process — each pod with its own
// loopback IP (loopback-ips.ts) and directory under the runtime's (its containers' roots,
// container-root.ts, and its emptyDirs), each container as container-process.ts runs it. The pod
// timeline (../simulate.ts) asks this runtime for the state of the containers it runs and
// simulates the others, so a pod may mix both. No isolation: the processes run as the nodes
// process's user, with its access to the host.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nameOf, namespaceOf, uidOf } from '../../api/meta/object.js';
import type { Container, Pod } from '../../api/types.js';
import { containerEnvironment, type VolumeSources } from '../shell/index.js';
import type { ContainerRunner, ContainerState, Kill } from '../simulate.js';
import { prepareContainerRoot, underRoot } from './container-root.js';
import { ContainerProcess, type RestartPolicy } from './container-process.js';
import { hostCommand, type HostCommand } from './host-command.js';
import { LISTEN_PRELOAD } from './listen-preload.js';
import { LoopbackIPs } from './loopback-ips.js';

export const DEFAULT_PROCESS_POD_CIDR = '127.64.0.0/16';
/** How long a container whose set-up failed (a missing ConfigMap) waits before it is tried again. */
const SETUP_RETRY_MS = 2000;
/** How long the agent's stop waits for the processes' SIGTERM before it kills them. */
const STOP_GRACE_MS = 5000;

export interface ProcessRuntimeOptions {
  /** Where the pods' directories are kept (each removed with its pod). */
  dir: string;
  /** The loopback range (/16 to /24) the pods' IPs come from. Default 127.64.0.0/16. */
  podCIDR?: string;
  /** The API server as the pods reach it: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT. */
  apiServer?: { host: string; port: number };
}

export interface ProcessRuntimeHooks {
  now(): number;
  /** The pod (its informer key) needs its status computed again. */
  changed(key: string): void;
  output(pod: Pod, container: Container, restartCount: number, runStart: number, text: string, at: number): void;
  event(pod: Pod, type: 'Normal' | 'Warning', reason: string, message: string): void;
  /** Where the pod's ConfigMaps, Secrets, Services and tokens come from. */
  sources(pod: Pod): VolumeSources;
  log(fields: Record<string, unknown>): void;
}

interface ContainerSetUp {
  done?: ContainerProcess;
  failed?: { message: string; at: number };
  pending?: Promise<void>;
}

interface PodProcesses {
  key: string;
  pod: Pod;
  dir: string;
  ip: string;
  containers: Map<string, ContainerSetUp>;
}

/** What an exec into a process container runs with. */
export interface ExecTarget {
  env: Record<string, string>;
  cwd: string;
  podIP: string;
}

export class ProcessRuntime {
  private readonly pods = new Map<string, PodProcesses>();
  private readonly ips: LoopbackIPs;
  private readonly preload: string;

  constructor(
    private readonly opts: ProcessRuntimeOptions,
    private readonly hooks: ProcessRuntimeHooks,
  ) {
    this.ips = new LoopbackIPs(opts.podCIDR ?? DEFAULT_PROCESS_POD_CIDR);
    mkdirSync(opts.dir, { recursive: true, mode: 0o755 });
    this.preload = join(opts.dir, 'listen-preload.cjs');
    writeFileSync(this.preload, LISTEN_PRELOAD);
  }

  /** Whether container `c` runs as a process (else it is simulated). */
  runs(c: Container): boolean {
    return hostCommand(c) !== undefined;
  }

  /** Whether any container of the pod runs as a process: the pod then gets a loopback IP. */
  runsPod(pod: Pod): boolean {
    const spec = pod.spec ?? {};
    return [...(spec.initContainers ?? []), ...(spec.containers ?? [])].some((c) => this.runs(c));
  }

  allocateIP(): string | undefined {
    return this.ips.allocate();
  }

  /** Keeps an address a pod already had (the agent restarted). */
  adoptIP(ip: string): boolean {
    return this.ips.adopt(ip);
  }

  releaseIP(ip: string): void {
    this.ips.release(ip);
  }

  /** The pod's IP when this runtime runs some of its containers. */
  podIP(uid: string): string | undefined {
    return this.pods.get(uid)?.ip;
  }

  /** The running process of a container, for exec (undefined: not a process container, or not running). */
  execTarget(uid: string, container: string): ExecTarget | undefined {
    const p = this.pods.get(uid);
    const cp = p?.containers.get(container)?.done;
    if (!p || !cp || cp.pid === undefined) return undefined;
    return { env: cp.env, cwd: cp.cwd, podIP: p.ip };
  }

  /** The runner the pod's timeline asks for the states of its process containers. */
  runner(pod: Pod, key: string, podIP: string): ContainerRunner {
    const uid = uidOf(pod);
    let p = this.pods.get(uid);
    if (!p) this.pods.set(uid, (p = { key, pod, dir: join(this.opts.dir, `${namespaceOf(pod)}_${nameOf(pod)}_${uid}`), ip: podIP, containers: new Map() }));
    p.pod = pod;
    const rec = p;
    return {
      state: (c, role, policy, kill, now) => (role === 'ephemeral' ? undefined : this.state(rec, c, policy, kill, now)),
    };
  }

  private state(p: PodProcesses, c: Container, policy: RestartPolicy, kill: Kill | undefined, now: number): ContainerState | undefined {
    const command = hostCommand(c);
    if (!command) return undefined;
    const name = c.name ?? '';
    let setUp = p.containers.get(name);
    if (!setUp) p.containers.set(name, (setUp = {}));
    if (setUp.done) return setUp.done.state(policy, kill, now, name);
    const waiting = (reason: string, message?: string, next?: number): ContainerState => ({ kind: 'waiting', waitingReason: reason, ...(message ? { waitingMessage: message } : {}), ready: false, restartCount: 0, killed: false, ...(next !== undefined ? { next } : {}) });
    if (kill && now >= kill.at) return waiting('ContainerCreating');
    if (setUp.failed && now < setUp.failed.at + SETUP_RETRY_MS) return waiting('CreateContainerConfigError', setUp.failed.message, setUp.failed.at + SETUP_RETRY_MS);
    if (!setUp.pending) {
      const s = setUp;
      s.pending = this.setUp(p, c, command)
        .then((cp) => {
          s.done = cp;
          s.failed = undefined;
        })
        .catch((e: unknown) => {
          s.failed = { message: e instanceof Error ? e.message : String(e), at: this.hooks.now() };
        })
        .finally(() => {
          s.pending = undefined;
          this.hooks.changed(p.key);
        });
    }
    return waiting(setUp.failed ? 'CreateContainerConfigError' : 'ContainerCreating', setUp.failed?.message);
  }

  private async setUp(p: PodProcesses, c: Container, command: HostCommand): Promise<ContainerProcess> {
    const pod = p.pod;
    const sources = this.hooks.sources(pod);
    const root = join(p.dir, 'containers', c.name ?? '');
    await prepareContainerRoot(pod, c, root, p.dir, sources, this.hooks.now);
    const env = await containerEnvironment(pod, c, sources);
    // the cluster's own Service address is not routable here: the pods reach the API server where it listens
    for (const k of Object.keys(env)) if (k.startsWith('KUBERNETES_PORT')) delete env[k];
    if (this.opts.apiServer) {
      const { host, port } = this.opts.apiServer;
      Object.assign(env, { KUBERNETES_SERVICE_HOST: host, KUBERNETES_SERVICE_PORT: String(port), KUBERNETES_SERVICE_PORT_HTTPS: String(port), KUBERNETES_PORT: `tcp://${host}:${port}` });
    }
    env.KUBELITE_POD_IP = p.ip;
    env.KUBELITE_CONTAINER_ROOT = root;
    if (command.node) env.NODE_OPTIONS = `--require=${this.preload}${env.NODE_OPTIONS ? ` ${env.NODE_OPTIONS}` : ''}`;
    const cwd = c.workingDir ? underRoot(root, c.workingDir) : root;
    const grace = pod.spec?.terminationGracePeriodSeconds ?? 30;
    return new ContainerProcess(
      c,
      { command, env, cwd, podIP: p.ip },
      {
        now: this.hooks.now,
        changed: () => this.hooks.changed(p.key),
        output: (restartCount, runStart, text, at) => this.hooks.output(p.pod, c, restartCount, runStart, text, at),
        event: (type, reason, message) => this.hooks.event(p.pod, type, reason, message),
      },
      grace,
    );
  }

  /** The pod is gone from the node: its processes are killed and its directory removed. */
  async forget(uid: string): Promise<void> {
    const p = this.pods.get(uid);
    if (!p) return;
    this.pods.delete(uid);
    await Promise.all([...p.containers.values()].map((s) => s.done?.close(0)));
    rmSync(p.dir, { recursive: true, force: true });
  }

  /** Stops every process (SIGTERM, SIGKILL after a few seconds) and removes the pods' directories. */
  async stop(): Promise<void> {
    const all = [...this.pods.values()];
    this.pods.clear();
    await Promise.all(all.flatMap((p) => [...p.containers.values()].map((s) => s.done?.close(STOP_GRACE_MS))));
    rmSync(this.opts.dir, { recursive: true, force: true });
  }
}

/**
 * Why the process runtime refuses to start (undefined: it may): as root, every pod's processes would
 * run as root on the host, without isolation, unless the user says so.
 */
export function rootRefusal(allowRoot: boolean, uid = process.getuid?.()): string | undefined {
  if (uid !== 0 || allowRoot) return undefined;
  return 'the process runtime runs pods as processes of this user on the host, without isolation, and this user is root: run as another user, or pass --allow-root';
}
