// Probes (liveness, readiness, startup) and lifecycle handlers (postStart, preStop): one handler
// each, with valid ports, paths and timings.
import type { Container, LifecycleHandler, Probe, ProbeHandler } from '../../api/types.js';
import { child, isObj, nonEmpty, num, optNum, str, validateNonnegativeField } from '../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import { isHTTPHeaderName, isValidPortName, isValidPortNum } from '../../machinery/validation/names.js';
import { optStruct, struct, structs } from '../../machinery/validation/structs.js';

function validatePortNumOrName(port: unknown, path: string): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((msg) => fieldError.invalid(path, port, msg));
  const s = str(port);
  return isValidPortName(s).map((msg) => fieldError.invalid(path, s, msg));
}

// A probe's handler and a lifecycle hook's differ by one kind (grpc / sleep): one function reads
// either, through the fields of both, in the order `kinds` gives (the first set kind counts).
type AnyHandler = ProbeHandler & LifecycleHandler;

function validateHandler(h: AnyHandler, gracePeriod: number | undefined, path: string, kinds: readonly (keyof AnyHandler)[]): FieldError[] {
  const errs: FieldError[] = [];
  let numHandlers = 0;
  for (const kind of kinds) {
    if (!isObj(h[kind])) continue;
    const p = child(path, kind);
    if (numHandlers > 0) {
      errs.push(fieldError.forbidden(p, 'may not specify more than 1 handler type'));
      continue;
    }
    numHandlers++;
    switch (kind) {
      case 'exec':
        if (!nonEmpty(struct(h.exec).command)) errs.push(fieldError.required(child(p, 'command')));
        break;
      case 'httpGet': {
        const a = struct(h.httpGet);
        if (str(a.path) === '') errs.push(fieldError.required(child(p, 'path')));
        errs.push(...validatePortNumOrName(a.port, child(p, 'port')));
        const scheme = str(a.scheme);
        if (scheme !== 'HTTP' && scheme !== 'HTTPS') errs.push(fieldError.notSupported(child(p, 'scheme'), scheme, ['HTTP', 'HTTPS']));
        for (const header of structs(a.httpHeaders)) for (const msg of isHTTPHeaderName(str(header.name))) errs.push(fieldError.invalid(child(p, 'httpHeaders'), str(header.name), msg));
        break;
      }
      case 'tcpSocket':
        errs.push(...validatePortNumOrName(struct(h.tcpSocket).port, child(p, 'port')));
        break;
      case 'grpc':
        errs.push(...validatePortNumOrName(num(struct(h.grpc).port), child(p, 'port')));
        break;
      case 'sleep': {
        const seconds = num(struct(h.sleep).seconds);
        if (gracePeriod !== undefined && (seconds < 0 || seconds > gracePeriod)) {
          errs.push(fieldError.invalid(p, seconds, `must be non-negative and less than terminationGracePeriodSeconds (${gracePeriod})`));
        }
        break;
      }
    }
  }
  if (numHandlers === 0) errs.push(fieldError.required(path, 'must specify a handler type'));
  return errs;
}

const probeHandlers = ['exec', 'httpGet', 'tcpSocket', 'grpc'] as const;
const lifecycleHandlers = ['exec', 'httpGet', 'tcpSocket', 'sleep'] as const;

function validateProbe(probe: Probe, gracePeriod: number | undefined, path: string): FieldError[] {
  const errs = validateHandler(probe, gracePeriod, path, probeHandlers);
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const) {
    errs.push(...validateNonnegativeField(num(probe[f]), child(path, f)));
  }
  const tgps = optNum(probe.terminationGracePeriodSeconds);
  if (tgps !== undefined && tgps <= 0) errs.push(fieldError.invalid(child(path, 'terminationGracePeriodSeconds'), tgps, 'must be greater than 0'));
  return errs;
}

export function validateProbes(c: Container, gracePeriod: number | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const lifecycle = optStruct(c.lifecycle);
  if (lifecycle) {
    for (const h of ['postStart', 'preStop'] as const) {
      const handler = optStruct(lifecycle[h]);
      if (handler) errs.push(...validateHandler(handler, gracePeriod, child(path, 'lifecycle', h), lifecycleHandlers));
    }
  }
  const liveness = optStruct(c.livenessProbe);
  if (liveness) {
    errs.push(...validateProbe(liveness, gracePeriod, child(path, 'livenessProbe')));
    if (num(liveness.successThreshold) !== 1) errs.push(fieldError.invalid(child(path, 'livenessProbe', 'successThreshold'), num(liveness.successThreshold), 'must be 1'));
  }
  const readiness = optStruct(c.readinessProbe);
  if (readiness) {
    errs.push(...validateProbe(readiness, gracePeriod, child(path, 'readinessProbe')));
    const t = optNum(readiness.terminationGracePeriodSeconds);
    if (t !== undefined) errs.push(fieldError.invalid(child(path, 'readinessProbe', 'terminationGracePeriodSeconds'), t, 'must not be set for readinessProbes'));
  }
  const startup = optStruct(c.startupProbe);
  if (startup) {
    errs.push(...validateProbe(startup, gracePeriod, child(path, 'startupProbe')));
    if (num(startup.successThreshold) !== 1) errs.push(fieldError.invalid(child(path, 'startupProbe', 'successThreshold'), num(startup.successThreshold), 'must be 1'));
  }
  return errs;
}
