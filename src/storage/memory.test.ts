import { describeConformance } from './conformance.js';
import { MemoryStorage } from './memory.js';

describeConformance('memory', async (opts) => new MemoryStorage({ watchBuffer: opts.watchBuffer }));
