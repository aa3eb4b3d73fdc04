// `kubelite status`: whether a `kubelite up` runs on a data dir, where, and how its nodes are.
// Exit 0 when it runs and answers, 1 otherwise (for scripts: `kubelite status || kubelite up &`).
import { parseOrExit, program } from '../machinery/flags.js';
import { loadRestConfig } from '../client/kubeconfig.js';
import { newClientset } from '../client/rest.js';
import { readPidFile } from '../up/pid-file.js';

interface NodeStatus {
  status?: { conditions?: Array<{ type: string; status: string }> };
}

export async function statusMain(argv: string[]): Promise<number> {
  const cmd = program('status', 'Show whether a cluster runs on a data dir, its server, kubeconfig and nodes.')
    .option('--data-dir <dir>', 'the data dir the cluster was started with', './.kubelite');
  const code = parseOrExit(cmd, argv);
  if (code !== undefined) return code;
  const o = cmd.opts<{ dataDir: string }>();
  const found = readPidFile(o.dataDir);
  if (!found?.running) {
    process.stdout.write(`stopped: no cluster is running on ${o.dataDir}\n`);
    return 1;
  }
  const { up } = found;
  const client = newClientset({ config: loadRestConfig({ kubeconfig: up.kubeconfig }), userAgent: 'kubelite-status', maxRetries: 0, timeoutMs: 5000 });
  let nodes: string;
  try {
    const list = await client.resource({ group: '', version: 'v1', resource: 'nodes' }).list('');
    const items = list.items as NodeStatus[];
    const ready = items.filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length;
    nodes = `${ready}/${items.length} nodes Ready`;
  } catch (e) {
    process.stdout.write(`running: pid=${up.pid} server=${up.server} kubeconfig=${up.kubeconfig}, but the API server does not answer: ${(e as Error).message}\n`);
    return 1;
  }
  process.stdout.write(`running: pid=${up.pid} server=${up.server} kubeconfig=${up.kubeconfig} ${nodes}${up.mergedInto ? ` context=kubelite in ${up.mergedInto}` : ''}\n`);
  return 0;
}
