// The ttl-after-finished controller's entry for the controller manager.
import type { ControllerConstructor } from '../../client/types.js';
import { TTLAfterFinishedController } from './controller.js';

export { TTLAfterFinishedController } from './controller.js';
export const newTTLAfterFinishedController: ControllerConstructor = (ctx) => new TTLAfterFinishedController(ctx);
