// kube-apiserver's autoregister controller, run once at start: one APIService per group version
// this server serves (registry/kinds/apiregistration/local-apiservices.ts), created when missing,
// its spec put back when changed, and the ones it registered earlier for group versions no longer
// served removed. Their Available condition comes from the APIService strategy.
import { allKinds } from '../api/kinds.js';
import { nameOf } from '../api/meta/object.js';
import type { KubeObject } from '../api/schema/kind.js';
import { StatusError } from '../machinery/status.js';
import { semanticEqual } from '../machinery/validation/common.js';
import { AUTOMANAGED_LABEL, localAPIServices } from '../registry/kinds/apiregistration/local-apiservices.js';
import type { Registry } from '../registry/registry.js';
import { existingOrCreate } from './bootstrap.js';

export async function bootstrapLocalAPIServices(registry: Registry): Promise<void> {
  const store = registry.store('apiregistration.k8s.io', 'apiservices');
  if (!store) return;
  const wanted = localAPIServices(allKinds) as KubeObject[];
  const names = new Set(wanted.map(nameOf));
  await Promise.all(
    wanted.map(async (svc) => {
      const current = await existingOrCreate(store, '', svc);
      if (current !== undefined && !semanticEqual(current.spec, svc.spec)) {
        await store.guaranteedUpdate('', nameOf(svc), (cur) => ({ ...cur, spec: svc.spec }));
      }
    }),
  );
  // The stale ones are read from the watch cache, once it has what storage has (our writes too);
  // a cache that cannot catch up leaves them for the next start.
  try {
    await registry.cacher.waitUntilFresh();
  } catch {
    return;
  }
  const stale = store.listNames('', (o) => o.labels[AUTOMANAGED_LABEL] === 'onstart' && !names.has(o.name));
  await Promise.all(
    stale.map(async ({ name }) => {
      try {
        await store.delete('', name);
      } catch (err) {
        if (!(err instanceof StatusError && err.code === 404)) throw err;
      }
    }),
  );
}
