// Reading a container's log as the kubelet does (GetKubeletContainerLogs): which run a request
// reads, from the container's status (validateContainerLogStatus: the previous run with
// `previous`, else the running one, else the last terminated one; a container waiting to start
// has none), then the lines of that run with the options of kuberuntime's ReadLogs: `tailLines`
// (the last N lines), then `sinceTime`/`sinceSeconds` (lines at or after it), `timestamps` (each
// line prefixed with its RFC 3339 time with nanoseconds, trailing zeros dropped, and a space),
// `limitBytes` (the output cut at that many bytes, even mid-line), and `follow`: new lines as they
// are written until the run ends, the limit is reached or the reader goes.
import type { ContainerStatus } from '../../api/types.js';
import type { Clock, TimerHandle } from '../../client/clock.js';
import { rfc3339Nano, type PodLogOptions } from '../../machinery/podlogs/options.js';
import type { ContainerLog } from './container-log.js';
import type { LogLine } from './ring.js';

/** A request for logs the kubelet refuses: answered 400 with the message. */
export class LogStatusError extends Error {}

/** The container ID whose log a request reads (kubelet's validateContainerLogStatus). */
export function logContainerID(podName: string, containerName: string, statuses: readonly ContainerStatus[], previous: boolean): string {
  const st = statuses.find((s) => s.name === containerName);
  if (!st) throw new LogStatusError(`container ${JSON.stringify(containerName)} in pod ${JSON.stringify(podName)} is not available`);
  const last = st.lastState?.terminated;
  const { waiting, running, terminated } = st.state ?? {};
  const where = `container ${JSON.stringify(containerName)} in pod ${JSON.stringify(podName)}`;
  if (previous) {
    if (!last?.containerID) throw new LogStatusError(`previous terminated ${where} not found`);
    return last.containerID;
  }
  if (running) return st.containerID ?? '';
  if (terminated) {
    if (!terminated.containerID) throw new LogStatusError(`${where} is terminated`);
    return terminated.containerID;
  }
  if (last) {
    if (!last.containerID) throw new LogStatusError(`${where} is terminated`);
    return last.containerID;
  }
  if (waiting) {
    if (waiting.reason === 'ErrImagePull') throw new LogStatusError(`${where} is waiting to start: image can't be pulled`);
    if (waiting.reason === 'ImagePullBackOff') throw new LogStatusError(`${where} is waiting to start: trying and failing to pull image`);
    throw new LogStatusError(`${where} is waiting to start: ${waiting.reason ?? ''}`);
  }
  throw new LogStatusError(`${where} is waiting to start - no logs yet`);
}

/** Where the lines go: `write` returns false when the reader is behind (wait for `drain`). */
export interface LogSink {
  write(chunk: string): boolean;
  once(event: 'drain' | 'close', fn: () => void): unknown;
  removeListener(event: 'drain' | 'close', fn: () => void): unknown;
}

/** Writes the lines of `log` that `opts` select to `out`; resolves when done (follow: the run ended or the reader went). */
export async function readLog(log: ContainerLog | undefined, opts: PodLogOptions, out: LogSink, clock: Clock, signal: AbortSignal): Promise<void> {
  if (!log) return;
  const now = clock.now();
  log.catchUp(now);
  const since = opts.sinceTime ?? (opts.sinceSeconds !== undefined ? now - opts.sinceSeconds * 1000 : undefined);
  let remaining = opts.limitBytes ?? Infinity;
  let pos = log.ring.end;
  let lines = log.ring.linesFrom(log.ring.start);
  if (opts.tailLines !== undefined) lines = opts.tailLines === 0 ? [] : lines.slice(-opts.tailLines);
  const format = (l: LogLine) => `${opts.timestamps ? `${rfc3339Nano(l.at)} ` : ''}${l.text}\n`;
  /** Writes what passes the since filter; false once the limit is reached. */
  const emit = async (batch: readonly LogLine[]): Promise<boolean> => {
    let chunk = '';
    for (const l of batch) if (since === undefined || l.at >= since) chunk += format(l);
    if (chunk === '') return remaining > 0;
    let bytes = Buffer.from(chunk);
    if (bytes.length >= remaining) bytes = bytes.subarray(0, remaining);
    remaining -= bytes.length;
    if (!out.write(bytes.toString('utf8'))) await waitFor(out, 'drain', signal);
    return remaining > 0;
  };
  if (!(await emit(lines)) || !opts.follow) return;
  while (!signal.aborted) {
    if (log.ended !== undefined && log.ring.end === pos) return;
    await changed(log, clock, signal);
    log.catchUp(clock.now());
    const fresh = log.ring.linesFrom(pos);
    pos = log.ring.end;
    if (!(await emit(fresh))) return;
    if (log.ended !== undefined && log.ring.end === pos) return;
  }
}

function waitFor(out: LogSink, event: 'drain', signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.removeListener(event, done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    out.once(event, done);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Resolves on the log's next line or end, when its next printed line is due, or on abort. */
function changed(log: ContainerLog, clock: Clock, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    let timer: TimerHandle | undefined;
    const done = () => {
      unsubscribe();
      timer?.cancel();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const unsubscribe = log.subscribe(done);
    const due = log.nextAt();
    if (due !== undefined) timer = clock.setTimer(done, Math.max(0, due - clock.now()));
    signal.addEventListener('abort', done, { once: true });
  });
}
