// `kubelite controller-manager`: the controller manager daemon of seed 001, until SIGTERM/SIGINT
// (clean stop, lock released) or lost leadership (exit 1).
import { startControllerManager } from '../controller-manager/manager.js';
import { parseControllerManagerOptions } from '../controller-manager/options.js';
import { isMainThread } from 'node:worker_threads';
import { limitHeapGrowth } from './heap-growth.js';
import { capYoungGeneration } from './young-generation.js';

export async function controllerManagerMain(argv: string[]): Promise<number> {
  const parsed = parseControllerManagerOptions(argv);
  if (parsed.exitCode !== undefined) return parsed.exitCode;
  const options = parsed.options!;
  // As the API server's (src/cli/apiserver.ts): 16 MB of young generation instead of V8's 32, and
  // garbage in the old generation kept to half the live heap; process-wide flags, so only where
  // the controller manager has its process to itself.
  if (isMainThread) {
    capYoungGeneration(16 * 1024 * 1024);
    limitHeapGrowth(50);
  }
  let handle;
  try {
    handle = await startControllerManager(options);
  } catch (err) {
    process.stderr.write(`kubelite controller-manager: ${(err as Error).message}\n`);
    // a kubeconfig that cannot be read or used, or neither --kubeconfig nor --master: a bad flag value
    return (err as Error).name === 'KubeconfigError' ? 2 : 1;
  }
  // one line for scripts and `kubelite up`, as `kubelite apiserver` prints
  process.stdout.write(handle.server ? `ready: url=${handle.server.url} identity=${handle.identity}\n` : `ready: identity=${handle.identity}\n`);
  const signalled = new Promise<'signal'>((resolve) => {
    process.once('SIGINT', () => resolve('signal'));
    process.once('SIGTERM', () => resolve('signal'));
  });
  const outcome = await Promise.race([signalled, handle.done]);
  if (outcome === 'signal') {
    await handle.stop();
    return 0;
  }
  await handle.stop();
  return outcome;
}
