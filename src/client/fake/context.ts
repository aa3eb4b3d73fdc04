// fakeControllerContext: a ControllerContext over a FakeClientset, fake informers, fake recorders
// and a settable clock, for controller unit tests.
import { ManualClock } from '../clock.js';
import type { ControllerContext, KubeObject } from '../types.js';
import { FakeClientset } from './clientset.js';
import { FakeInformerFactory } from './informers.js';
import { FakeRecorder, type RecordedEvent } from './recorder.js';

/** A clock tests move by hand (timers fire as `advance` passes them). */
export class FakeClock extends ManualClock {}

export interface FakeControllerContextOptions {
  /** Objects seeded into the tracker (apiVersion + kind name their resource). */
  objects?: KubeObject[];
  clientset?: FakeClientset;
  options?: Record<string, unknown>;
  /** Milliseconds since the epoch, or a FakeClock; default a FakeClock at 2026-01-01T00:00:00Z. */
  now?: number | (() => number) | FakeClock;
  /** Start the informers at once (default true). */
  start?: boolean;
}

export interface FakeControllerContext extends ControllerContext {
  clientset: FakeClientset;
  informers: FakeInformerFactory;
  clock: FakeClock;
  /** Every event of every recorder of this context. */
  events: RecordedEvent[];
  logs: Record<string, unknown>[];
  recorder: (component: string) => FakeRecorder;
}

export function fakeControllerContext(opts: FakeControllerContextOptions = {}): FakeControllerContext {
  const clientset = opts.clientset ?? new FakeClientset({ objects: opts.objects });
  if (opts.clientset && opts.objects) for (const o of opts.objects) clientset.tracker.add(o);
  const informers = new FakeInformerFactory(clientset);
  const clock = opts.now instanceof FakeClock ? opts.now : new FakeClock(typeof opts.now === 'number' ? opts.now : undefined);
  const nowFn = typeof opts.now === 'function' ? opts.now : clock.now;
  const events: RecordedEvent[] = [];
  const logs: Record<string, unknown>[] = [];
  if (opts.start !== false) informers.start(new AbortController().signal);
  return {
    clientset,
    informers,
    clock,
    events,
    logs,
    recorder: (component: string) => new FakeRecorder(component, events),
    options: Object.freeze({ ...(opts.options ?? {}) }),
    now: () => nowFn(),
    log: (fields) => void logs.push(fields),
  };
}
