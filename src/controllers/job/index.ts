// The job controller's entry for the controller manager.
import type { ControllerConstructor } from '../../client/types.js';
import { JobController } from './controller.js';

export { JobController } from './controller.js';
export const newJobController: ControllerConstructor = (ctx) => new JobController(ctx);
