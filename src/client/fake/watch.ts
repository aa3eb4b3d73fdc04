export { QueueWatch } from '../queue-watch.js';
