// The daemonset controller's entry for the controller manager.
import type { ControllerConstructor } from '../../client/types.js';
import { DaemonSetController } from './controller.js';

export { DaemonSetController } from './controller.js';
export const newDaemonSetController: ControllerConstructor = (ctx) => new DaemonSetController(ctx);
export default newDaemonSetController;
