// The kubelet's streaming endpoints for a simulated container (pkg/kubelet/server: /exec, /attach,
// /portForward), over the protocols of machinery/streams:
//   exec         the command runs in the built-in shell (../shell) over the container's virtual
//                filesystem and environment, built when the container run is first exec'd into
//                and kept for that run (what one exec writes, the next one sees);
//   attach       the container's output as it is printed (its log, followed), until it ends;
//   portForward  each forwarded connection reaches the container's HTTP server on that port
//                (container-http.ts), or — with the pod annotation
//                `kubelite.dev/port-forward: "<port>=<host>:<port>,..."` — a TCP address on the
//                host, as KWOK's ClusterPortForward.
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { Writable, type Duplex } from 'node:stream';
import { annotationsOf, nameOf, namespaceOf, uidOf } from '../../api/meta/object.js';
import type { Container, Pod } from '../../api/types.js';
import { acceptPortForward, acceptRemoteCommand, forward, portsFromQuery, stdStreamsFromQuery, UpgradeRejectedError, type PortForwardStream } from '../../machinery/streams/index.js';
import { errMsg, type Log } from '../options.js';
import { LIFECYCLE_PREFIX } from '../logs/container-logs.js';
import { logContainerID, readLog, type LogSink } from '../logs/read.js';
import { containerEnvironment, containerFilesystem, runCommand, type Vfs, type VolumeSources } from '../shell/index.js';
import { ANNOTATION_PREFIX } from '../behaviour.js';
import { apiVolumeSources } from '../volume-sources.js';
import { execInProcessContainer } from '../process/exec.js';
import type { ExecTarget } from '../process/runtime.js';
import { listeningContainer, serveContainerHTTP } from './container-http.js';
import type { KubeletHost } from './host.js';

export const PORT_FORWARD_ANNOTATION = `${ANNOTATION_PREFIX}port-forward`;

/** The upgrade request as the listener received it. */
export interface Upgrade {
  req: IncomingMessage;
  socket: Duplex;
  head: Buffer;
}

/** Takes the connection over once the request is found valid (before: refusals are plain answers). */
export type TakeUpgrade = () => Upgrade;

/** A refusal before the upgrade: the kubelet's status and text. */
export class StreamRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface Shell {
  fs: Vfs;
  env: Record<string, string>;
}

/** The kubelet's --streaming-connection-idle-timeout default: a stream nobody uses is dropped after 4 h. */
const IDLE_TIMEOUT_MS = 4 * 3600_000;

const findContainer = (pod: Pod, name: string): Container | undefined =>
  [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? []), ...((pod.spec?.ephemeralContainers ?? []) as Container[])].find((c) => c.name === name);

export class ContainerStreams {
  /** One shell state per container run (`<pod uid>/<container id>`). */
  private readonly shells = new Map<string, Promise<Shell>>();

  constructor(
    private readonly host: KubeletHost,
    private readonly log?: Log,
  ) {}

  /** The running container's ID, or the refusal the kubelet gives for a container that is not running. */
  private runningContainer(pod: Pod, name: string): string {
    const status = (this.host.logs.statuses(uidOf(pod)) ?? [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])]).find((s) => s.name === name);
    if (!findContainer(pod, name)) throw new StreamRefusal(404, `container not found (${JSON.stringify(name)})`);
    if (!status?.state?.running || !status.containerID) throw new StreamRefusal(400, `container ${JSON.stringify(name)} in pod ${JSON.stringify(nameOf(pod))} is not running`);
    return status.containerID;
  }

  private sources(pod: Pod): VolumeSources {
    return apiVolumeSources(this.host.clientOf(pod.spec?.nodeName ?? ''));
  }

  private shell(pod: Pod, container: string, containerID: string): Promise<Shell> {
    const key = `${uidOf(pod)}/${containerID}`;
    let s = this.shells.get(key);
    if (!s) {
      const sources = this.sources(pod);
      s = (async () => ({ fs: await containerFilesystem(pod, container, sources, { now: () => this.host.clock.now() }), env: await containerEnvironment(pod, container, sources) }))();
      s.catch(() => this.shells.delete(key));
      this.shells.set(key, s);
    }
    return s;
  }

  /** Forgets the shells of a pod that is gone. */
  forget(uid: string): void {
    for (const key of this.shells.keys()) if (key.startsWith(`${uid}/`)) this.shells.delete(key);
  }

  async exec(take: TakeUpgrade, pod: Pod, container: string, query: URLSearchParams): Promise<void> {
    const command = query.getAll('command');
    if (command.length === 0) throw new StreamRefusal(400, 'you must specify at least 1 command');
    const containerID = this.runningContainer(pod, container);
    const processTarget = this.host.runtime?.execTarget(uidOf(pod), container);
    if (processTarget) return this.execProcess(take, pod, container, command, processTarget, query);
    const shell = await this.shell(pod, container, containerID);
    const u = take();
    const session = await this.accept(() => acceptRemoteCommand(u.req, u.socket, u.head, { ...stdStreamsFromQuery(query), idleTimeoutMs: IDLE_TIMEOUT_MS }));
    if (!session) return;
    const stdout = session.stdout ?? devNull();
    let outcome: number | Error;
    try {
      outcome = await runCommand(
        command,
        { stdin: session.stdin ?? undefined, stdout, stderr: session.stderr ?? stdout, tty: session.tty },
        { fs: shell.fs, env: shell.env, cwd: findContainer(pod, container)?.workingDir ?? '/', hostname: pod.spec?.hostname ?? nameOf(pod), signal: session.signal, now: () => this.host.clock.now() },
      );
    } catch (e) {
      outcome = e instanceof Error ? e : new Error(String(e));
    }
    this.log?.({ msg: 'exec', pod: `${namespaceOf(pod)}/${nameOf(pod)}`, container, command: command.join(' '), exit: typeof outcome === 'number' ? outcome : errMsg(outcome) });
    await session.finish(outcome);
  }

  /** An exec into a container the process runtime runs: a real process beside it. */
  private async execProcess(take: TakeUpgrade, pod: Pod, container: string, command: string[], target: ExecTarget, query: URLSearchParams): Promise<void> {
    const u = take();
    const session = await this.accept(() => acceptRemoteCommand(u.req, u.socket, u.head, { ...stdStreamsFromQuery(query), idleTimeoutMs: IDLE_TIMEOUT_MS }));
    if (!session) return;
    const status = await execInProcessContainer(command, findContainer(pod, container)!, target, { stdin: session.stdin, stdout: session.stdout, stderr: session.stderr, signal: session.signal });
    this.log?.({ msg: 'exec', pod: `${namespaceOf(pod)}/${nameOf(pod)}`, container, command: command.join(' '), exit: status, runtime: 'process' });
    await session.finish(status);
  }

  /** /run (RunInContainer): the command's combined output, without a stream. */
  async run(pod: Pod, container: string, cmd: string): Promise<string> {
    const command = cmd.split(/\s+/).filter((w) => w !== '');
    if (command.length === 0) throw new StreamRefusal(400, 'missing cmd');
    const containerID = this.runningContainer(pod, container);
    const shell = await this.shell(pod, container, containerID);
    let output = '';
    const sink = new Writable({
      write: (chunk: Buffer, _enc, cb) => {
        output += chunk.toString('utf8');
        cb();
      },
    });
    const signal = AbortSignal.timeout(60_000);
    await runCommand(command, { stdin: undefined, stdout: sink, stderr: sink, tty: false }, { fs: shell.fs, env: shell.env, cwd: findContainer(pod, container)?.workingDir ?? '/', hostname: pod.spec?.hostname ?? nameOf(pod), signal, now: () => this.host.clock.now() });
    return output;
  }

  async attach(take: TakeUpgrade, pod: Pod, container: string, query: URLSearchParams): Promise<void> {
    const containerID = this.runningContainer(pod, container);
    const spec = findContainer(pod, container);
    // A container whose process is a shell reading its stdin (`kubectl run -it ... -- sh`,
    // `kubectl debug -it`): attaching talks to that shell.
    const interactive = spec?.stdin === true && isShellProcess(spec);
    const shell = interactive ? await this.shell(pod, container, containerID) : undefined;
    const u = take();
    const session = await this.accept(() => acceptRemoteCommand(u.req, u.socket, u.head, { ...stdStreamsFromQuery(query), idleTimeoutMs: IDLE_TIMEOUT_MS }));
    if (!session) return;
    if (shell && session.stdin) {
      const stdout = session.stdout ?? devNull();
      const status = await runCommand(
        ['sh'],
        { stdin: session.stdin, stdout, stderr: session.stderr ?? stdout, tty: session.tty },
        { fs: shell.fs, env: shell.env, cwd: spec?.workingDir ?? '/', hostname: pod.spec?.hostname ?? nameOf(pod), signal: session.signal, now: () => this.host.clock.now() },
      ).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
      await session.finish(status);
      return;
    }
    // What is typed goes nowhere: a simulated process reads nothing.
    session.stdin?.resume();
    const out = session.stdout ?? session.stderr;
    const statuses = this.host.logs.statuses(uidOf(pod)) ?? [];
    const id = logContainerID(nameOf(pod), container, statuses, false);
    if (out) {
      // What the process prints, without kubelite's own lifecycle lines of the log.
      const printed = withoutLifecycleLines(out);
      await readLog(this.host.logs.run(uidOf(pod), container, id === '' ? containerID : id), { follow: true, tailLines: 0, timestamps: false, previous: false, insecureSkipTLSVerifyBackend: false }, printed, this.host.clock, session.signal).catch(() => undefined);
    }
    await session.finish(0);
  }

  async portForward(take: TakeUpgrade, pod: Pod, query: URLSearchParams): Promise<void> {
    const ports = portsFromQuery(query);
    const wanted = Array.isArray(ports) ? ports : [];
    const u = take();
    const session = await this.accept(() => acceptPortForward(u.req, u.socket, u.head, { ports: wanted, idleTimeoutMs: IDLE_TIMEOUT_MS }));
    if (!session) return;
    const targets = hostTargets(pod);
    const processIP = this.host.runtime?.podIP(uidOf(pod));
    session.on('stream', (s) => {
      const target = targets.get(s.port) ?? (processIP !== undefined ? { host: processIP, port: s.port } : undefined);
      if (target) return forwardToHost(s, target);
      this.forwardToContainer(s, pod);
    });
  }

  /** Runs an accept; a refused upgrade has been answered already. */
  private async accept<T>(fn: () => Promise<T>): Promise<T | undefined> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof UpgradeRejectedError) return undefined;
      throw e;
    }
  }

  /** The simulated container's HTTP server, over the forwarded connection. */
  private forwardToContainer(s: PortForwardStream, pod: Pod): void {
    const statuses = this.host.logs.statuses(uidOf(pod)) ?? [...(pod.status?.containerStatuses ?? [])];
    const running = (name: string) => statuses.some((st) => st.name === name && st.state?.running);
    if (!listeningContainer(pod, s.port, running)) {
      s.error.end(`error forwarding port ${s.port} to pod ${uidOf(pod)}: failed to connect to localhost:${s.port} inside the pod's network namespace: connect: connection refused`);
      s.data.end();
      return;
    }
    const prefix = ['containerHTTP', namespaceOf(pod), nameOf(pod), String(s.port)];
    const server = createHttpServer((req, res) => {
      // as the kubelet's own route to it names the container's path
      req.url = `/${prefix.join('/')}${req.url ?? '/'}`;
      serveContainerHTTP(req, res, prefix, pod, this.host);
    });
    server.emit('connection', s.data);
    s.data.once('close', () => server.close());
  }
}

const SHELLS = new Set(['sh', 'bash', 'ash', 'dash', 'zsh']);

/** Whether the container's process is an interactive shell: a shell without a script, or no command (a shell image's default). */
function isShellProcess(c: Container): boolean {
  const argv = [...(c.command ?? []), ...(c.args ?? [])];
  if (argv.length === 0) return true;
  const base = (argv[0] ?? '').split('/').pop() ?? '';
  return SHELLS.has(base) && !argv.slice(1).some((a) => /^-[a-z]*c/.test(a));
}

/** `kubelite.dev/port-forward: "8080=127.0.0.1:9000,9090=localhost:9091"`. */
export function hostTargets(pod: Pod): Map<number, { host: string; port: number }> {
  const out = new Map<number, { host: string; port: number }>();
  for (const item of (annotationsOf(pod)[PORT_FORWARD_ANNOTATION] ?? '').split(',')) {
    const m = /^\s*(\d+)\s*=\s*(\[[^\]]+\]|[^:\s]+):(\d+)\s*$/.exec(item);
    if (m) out.set(Number(m[1]), { host: m[2]!.replace(/^\[|\]$/g, ''), port: Number(m[3]) });
  }
  return out;
}

function forwardToHost(s: PortForwardStream, target: { host: string; port: number }): void {
  const conn = connect(target.port, target.host);
  conn.once('error', (e) => {
    s.error.end(`error forwarding port ${s.port} to ${target.host}:${target.port}: ${e.message}`);
    s.data.end();
  });
  conn.once('connect', () => {
    conn.setNoDelay(true);
    forward(s.data, conn);
    forward(conn, s.data);
  });
  s.data.once('close', () => conn.destroy());
}

/** A sink passing on every line but kubelite's `[kubelite] ...` lifecycle lines. */
function withoutLifecycleLines(out: Writable): LogSink {
  return {
    write: (chunk) => {
      const kept = chunk
        .split(/(?<=\n)/)
        .filter((l) => !l.startsWith(LIFECYCLE_PREFIX))
        .join('');
      return kept === '' ? true : out.write(kept);
    },
    once: (event, fn) => out.once(event, fn),
    removeListener: (event, fn) => out.removeListener(event, fn),
  };
}

function devNull(): Writable {
  return new Writable({ write: (_c, _e, cb) => cb() });
}
