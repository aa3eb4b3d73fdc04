export { DeploymentController, newDeploymentController, DEPLOYMENTS } from './controller.js';
export { getRollbackTo } from './revisions.js';
