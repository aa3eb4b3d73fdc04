export { DeploymentController, newDeploymentController, getRollbackTo, DEPLOYMENTS } from './deployment.js';
