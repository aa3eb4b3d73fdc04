// A ControllerContext over the real client: what the controller manager hands each controller.
import type { Clock } from './clock.js';
import { realClock } from './clock.js';
import { EventBroadcaster } from './events.js';
import type { Clientset, ControllerContext, EventRecorder, InformerFactory } from './types.js';

export interface ControllerContextOptions {
  clientset: Clientset;
  informers: InformerFactory;
  /** Writes the events of every recorder; one is made over `clientset` when absent. */
  broadcaster?: EventBroadcaster;
  /** reportingInstance / source.host of events. */
  host?: string;
  options?: Record<string, unknown>;
  clock?: Clock;
  log?: (fields: Record<string, unknown>) => void;
}

export function newControllerContext(opts: ControllerContextOptions): ControllerContext & { broadcaster: EventBroadcaster } {
  const clock = opts.clock ?? realClock;
  const log = opts.log ?? (() => {});
  const broadcaster = opts.broadcaster ?? new EventBroadcaster({ clientset: opts.clientset, host: opts.host, clock, log: (f) => log({ subsystem: 'events', ...f }) });
  const recorders = new Map<string, EventRecorder>();
  return {
    clientset: opts.clientset,
    informers: opts.informers,
    broadcaster,
    recorder: (component) => {
      let r = recorders.get(component);
      if (!r) recorders.set(component, (r = broadcaster.newRecorder(component)));
      return r;
    },
    options: Object.freeze({ ...(opts.options ?? {}) }),
    now: () => clock.now(),
    log,
  };
}
