// A controller configured off (kube-controller-manager: "<name> is disabled because ..."): it says
// why once and waits for the end of the run, so the daemon's bookkeeping of running controllers holds.
import type { Controller, ControllerContext } from '../../client/types.js';
import { untilAborted } from '../../client/wait.js';

export function disabledController(name: string, ctx: ControllerContext, why: string): Controller {
  return {
    name,
    run(_workers, signal) {
      ctx.log({ controller: name, msg: `controller is disabled: ${why}`, level: 'warning' });
      return untilAborted(signal);
    },
  };
}
