// `kubelite snapshot save FILE` / `kubelite snapshot restore FILE`: a snapshot file of a stopped
// cluster's data dir (lmdb), taken or put back — `etcdutl snapshot save|restore` for kubelite. A
// running cluster's snapshots go through its API server instead (startCluster's
// snapshot()/restore(), /kubelite/snapshots). One line and exit 2 for anything wrong.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseOrExit, program } from '../machinery/flags.js';
import { SnapshotFormatError } from '../storage/snapshot.js';
import { restoreSnapshotFile, saveSnapshotFile } from '../storage/snapshot-file.js';
import { isStorageError } from '../storage/types.js';

export async function snapshotMain(argv: string[]): Promise<number> {
  const cmd = program('snapshot', 'Save a stopped cluster\'s objects to a file, or put them back (the cluster stopped, as etcdutl snapshot save|restore).');
  let action: { verb: 'save' | 'restore'; file: string } | undefined;
  const dataDirOption = ['--data-dir <dir>', 'the data dir of the cluster (kubelite up\'s)', './.kubelite'] as const;
  cmd
    .command('save')
    .description('write every object of the data dir to FILE')
    .argument('<file>')
    .option(...dataDirOption)
    .action((file: string) => void (action = { verb: 'save', file }));
  cmd
    .command('restore')
    .description('bring the data dir back to FILE: objects created since are deleted, changed ones written back, deleted ones created again (with new resourceVersions)')
    .argument('<file>')
    .option(...dataDirOption)
    .action((file: string) => void (action = { verb: 'restore', file }));
  for (const sub of cmd.commands) {
    sub.exitOverride();
    sub.configureOutput({ writeErr: (s) => process.stderr.write(s.startsWith('error:') ? `kubelite snapshot ${sub.name()}: ${s.slice('error: '.length)}` : s) });
  }
  const code = parseOrExit(cmd, argv);
  if (code !== undefined) return code;
  if (!action) {
    process.stderr.write('kubelite snapshot: say save FILE or restore FILE\n');
    return 2;
  }
  const sub = cmd.commands.find((c) => c.name() === action!.verb)!;
  const dataDir = (sub.opts() as { dataDir: string }).dataDir;
  const fail = (message: string) => {
    process.stderr.write(`kubelite snapshot ${action!.verb}: ${message}\n`);
    return 2;
  };
  if (!existsSync(join(dataDir, 'db'))) return fail(`${dataDir} holds no cluster (no ${join(dataDir, 'db')}): pass --data-dir`);
  try {
    if (action.verb === 'save') {
      const r = await saveSnapshotFile(dataDir, action.file);
      process.stdout.write(`saved ${r.keys} objects at revision ${r.revision} to ${action.file}\n`);
    } else {
      if (!existsSync(action.file)) return fail(`${action.file} does not exist`);
      const r = await restoreSnapshotFile(dataDir, action.file);
      process.stdout.write(`restored ${dataDir} from ${action.file}: ${r.created} created, ${r.updated} updated, ${r.deleted} deleted (revision ${r.revision})\n`);
    }
    return 0;
  } catch (e) {
    if (e instanceof SnapshotFormatError || isStorageError(e)) return fail((e as Error).message);
    if ((e as NodeJS.ErrnoException).code !== undefined) return fail((e as Error).message);
    throw e;
  }
}
