// `kubelite down`: stops the `kubelite up` running on a data dir (found through its pid file) as
// Ctrl-C would — SIGTERM; up then stops its components in order, removes the kubeconfig context it
// merged and its pid file — and waits until it has exited.
import { parseOrExit, program } from '../machinery/flags.js';
import { removeContext } from '../up/kubeconfig-context.js';
import { isRunning, readPidFile, removePidFile } from '../up/pid-file.js';
import { sleep } from '../client/wait.js';

export async function downMain(argv: string[]): Promise<number> {
  const cmd = program('down', 'Stop the cluster `kubelite up` runs on a data dir.')
    .option('--data-dir <dir>', 'the data dir the cluster was started with', './.kubelite')
    .option('--timeout <seconds>', 'how long to wait for it to stop', (v: string) => Number(v), 60);
  const code = parseOrExit(cmd, argv);
  if (code !== undefined) return code;
  const o = cmd.opts<{ dataDir: string; timeout: number }>();
  const found = readPidFile(o.dataDir);
  if (!found) {
    process.stderr.write(`kubelite down: no cluster is running on ${o.dataDir}: no pid file there (start one with kubelite up --data-dir ${o.dataDir})\n`);
    return 1;
  }
  if (!found.running) {
    // up was killed outright: what it would have removed on stopping goes now
    removePidFile(o.dataDir);
    if (found.up.mergedInto) removeContext(found.up.mergedInto);
    process.stderr.write(`kubelite down: the cluster of ${o.dataDir} (pid ${found.up.pid}) is not running any more; removed its stale pid file${found.up.mergedInto ? ` and its context in ${found.up.mergedInto}` : ''}\n`);
    return 1;
  }
  process.kill(found.up.pid, 'SIGTERM');
  const deadline = Date.now() + o.timeout * 1000;
  while (isRunning(found.up.pid)) {
    if (Date.now() > deadline) {
      process.stderr.write(`kubelite down: pid ${found.up.pid} still running after ${o.timeout}s: kill it with kill -9 ${found.up.pid}\n`);
      return 1;
    }
    await sleep(50);
  }
  process.stdout.write(`stopped: the cluster of ${o.dataDir} (pid ${found.up.pid})\n`);
  return 0;
}
