// Starts a garbage collector over a fake controller context for the tests.
import { fakeControllerContext, type FakeControllerContext } from '../../client/fake/index.js';
import type { KubeObject } from '../../client/types.js';
import { emulateDeletePropagation } from '../common/testutil.js';
import { GarbageCollectorController, type GarbageCollectorOptions } from './controller.js';

export interface RunningGc {
  ctx: FakeControllerContext;
  gc: GarbageCollectorController;
  stop(): Promise<void>;
}

/** A collector running with two workers; `prepare` runs before it is built (e.g. to change discovery). */
export function startGc(objects: KubeObject[], options: Record<string, unknown> = {}, gcOptions: GarbageCollectorOptions = {}, prepare?: (ctx: FakeControllerContext) => void): RunningGc {
  const ctx = fakeControllerContext({ objects, options });
  emulateDeletePropagation(ctx.clientset);
  prepare?.(ctx);
  const gc = new GarbageCollectorController(ctx, gcOptions);
  const ac = new AbortController();
  const done = gc.run(2, ac.signal);
  return {
    ctx,
    gc,
    async stop() {
      ac.abort();
      await done;
    },
  };
}
