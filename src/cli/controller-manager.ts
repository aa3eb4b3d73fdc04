// `kubelite controller-manager`: the controller manager daemon of seed 001, until SIGTERM/SIGINT
// (clean stop, lock released) or lost leadership (exit 1).
import { defaultLog, startControllerManager } from '../controller-manager/manager.js';
import { parseControllerManagerOptions } from '../controller-manager/options.js';
import { processContext, type ComponentContext } from '../machinery/component-context.js';
import { limitHeapGrowth } from './heap-growth.js';
import { capYoungGeneration } from './young-generation.js';

export async function controllerManagerMain(argv: string[], ctx: ComponentContext = processContext()): Promise<number> {
  const parsed = parseControllerManagerOptions(argv, { out: ctx.stdout, err: ctx.stderr });
  if (parsed.exitCode !== undefined) return parsed.exitCode;
  const options = parsed.options!;
  // As the API server's (src/cli/apiserver.ts): 16 MB of young generation instead of V8's 32, and
  // garbage in the old generation kept to half the live heap; process-wide flags, so only where
  // the controller manager has its process to itself.
  if (ctx.ownsProcess) {
    capYoungGeneration(16 * 1024 * 1024);
    limitHeapGrowth(50);
  }
  let handle;
  try {
    handle = await startControllerManager(options, { log: (fields) => defaultLog(fields, ctx.stderr) });
  } catch (err) {
    ctx.stderr(`kubelite controller-manager: ${(err as Error).message}\n`);
    // a kubeconfig that cannot be read or used, or neither --kubeconfig nor --master: a bad flag value
    return (err as Error).name === 'KubeconfigError' ? 2 : 1;
  }
  // one line for scripts and `kubelite up`, as `kubelite apiserver` prints
  ctx.stdout(handle.server ? `ready: url=${handle.server.url} identity=${handle.identity}\n` : `ready: identity=${handle.identity}\n`);
  const signalled = ctx.stopRequested().then(() => 'signal' as const);
  const outcome = await Promise.race([signalled, handle.done]);
  if (outcome === 'signal') {
    await handle.stop();
    return 0;
  }
  await handle.stop();
  return outcome;
}
