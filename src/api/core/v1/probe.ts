// core/v1 probes and lifecycle hooks: the actions (exec, HTTP GET, TCP, gRPC, sleep), Probe with
// its inline ProbeHandler, LifecycleHandler and Lifecycle.
import { field, inline, listOf, struct, t } from '../../schema/dsl.js';

const req = { omitempty: false, required: true } as const;

export const URIScheme = ['HTTP', 'HTTPS'] as const;

/** Signal names a container may be stopped with (Lifecycle.stopSignal, v1.33), in Go's order (OpenAPI sorts them). */
export const Signal = [
  'SIGABRT', 'SIGALRM', 'SIGBUS', 'SIGCHLD', 'SIGCLD', 'SIGCONT', 'SIGFPE', 'SIGHUP', 'SIGILL', 'SIGINT', 'SIGIO',
  'SIGIOT', 'SIGKILL', 'SIGPIPE', 'SIGPOLL', 'SIGPROF', 'SIGPWR', 'SIGQUIT', 'SIGSEGV', 'SIGSTKFLT', 'SIGSTOP',
  'SIGSYS', 'SIGTERM', 'SIGTRAP', 'SIGTSTP', 'SIGTTIN', 'SIGTTOU', 'SIGURG', 'SIGUSR1', 'SIGUSR2', 'SIGVTALRM',
  'SIGWINCH', 'SIGXCPU', 'SIGXFSZ', 'SIGRTMIN', 'SIGRTMIN+1', 'SIGRTMIN+2', 'SIGRTMIN+3', 'SIGRTMIN+4',
  'SIGRTMIN+5', 'SIGRTMIN+6', 'SIGRTMIN+7', 'SIGRTMIN+8', 'SIGRTMIN+9', 'SIGRTMIN+10', 'SIGRTMIN+11',
  'SIGRTMIN+12', 'SIGRTMIN+13', 'SIGRTMIN+14', 'SIGRTMIN+15', 'SIGRTMAX-14', 'SIGRTMAX-13', 'SIGRTMAX-12',
  'SIGRTMAX-11', 'SIGRTMAX-10', 'SIGRTMAX-9', 'SIGRTMAX-8', 'SIGRTMAX-7', 'SIGRTMAX-6', 'SIGRTMAX-5',
  'SIGRTMAX-4', 'SIGRTMAX-3', 'SIGRTMAX-2', 'SIGRTMAX-1', 'SIGRTMAX',
] as const;

export const ExecAction = struct('io.k8s.api.core.v1.ExecAction', {
  command: field(listOf(t.string), 1, { listType: 'atomic' }),
});

export const HTTPHeader = struct('io.k8s.api.core.v1.HTTPHeader', {
  name: field(t.string, 1, req),
  value: field(t.string, 2, req),
});

export const HTTPGetAction = struct('io.k8s.api.core.v1.HTTPGetAction', {
  path: field(t.string, 1),
  port: field(t.intOrString, 2, req),
  host: field(t.string, 3),
  scheme: field(t.string, 4, { enum: URIScheme }),
  httpHeaders: field(listOf(HTTPHeader), 5, { listType: 'atomic' }),
});

export const TCPSocketAction = struct('io.k8s.api.core.v1.TCPSocketAction', {
  port: field(t.intOrString, 1, req),
  host: field(t.string, 2),
});

export const GRPCAction = struct('io.k8s.api.core.v1.GRPCAction', {
  port: field(t.int32, 1, req),
  // `json:"service"` without omitempty (+optional, +default=""): a nil pointer is written as null.
  service: field(t.string, 2, { pointer: true, omitempty: false, default: '' }),
});

export const SleepAction = struct('io.k8s.api.core.v1.SleepAction', {
  seconds: field(t.int64, 1, req),
});

/** The action of a probe; inline in Probe (flat in JSON, message `handler` = 1 in protobuf). */
export const ProbeHandler = struct('io.k8s.api.core.v1.ProbeHandler', {
  exec: field(ExecAction, 1, { pointer: true }),
  httpGet: field(HTTPGetAction, 2, { pointer: true }),
  tcpSocket: field(TCPSocketAction, 3, { pointer: true }),
  grpc: field(GRPCAction, 4, { pointer: true }),
});

export const Probe = struct('io.k8s.api.core.v1.Probe', {
  ...inline(ProbeHandler, 1, 'handler'),
  initialDelaySeconds: field(t.int32, 2),
  timeoutSeconds: field(t.int32, 3),
  periodSeconds: field(t.int32, 4),
  successThreshold: field(t.int32, 5),
  failureThreshold: field(t.int32, 6),
  terminationGracePeriodSeconds: field(t.int64, 7, { pointer: true }),
});

export const LifecycleHandler = struct('io.k8s.api.core.v1.LifecycleHandler', {
  exec: field(ExecAction, 1, { pointer: true }),
  httpGet: field(HTTPGetAction, 2, { pointer: true }),
  tcpSocket: field(TCPSocketAction, 3, { pointer: true }),
  sleep: field(SleepAction, 4, { pointer: true }),
});

export const Lifecycle = struct('io.k8s.api.core.v1.Lifecycle', {
  postStart: field(LifecycleHandler, 1, { pointer: true }),
  preStop: field(LifecycleHandler, 2, { pointer: true }),
  stopSignal: field(t.string, 3, { pointer: true, enum: Signal }),
});
