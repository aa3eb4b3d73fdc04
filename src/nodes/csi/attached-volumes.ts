// What the kubelet waits for before it starts a pod's containers on a node whose volumes the
// attach/detach controller manages: every attachable volume the pod uses listed in the node's
// status.volumesAttached. A claim, or its volume, not seen yet counts as not attached: the kubelet
// cannot mount what it cannot find.
import { namespaceOf } from '../../api/meta/object.js';
import type { CSIDriver, Node, PersistentVolume, PersistentVolumeClaim, Pod } from '../../api/types.js';
import type { InformerFactory, Lister } from '../../client/types.js';
import { podClaimNames } from '../../machinery/volumes/storage.js';
import { attachableVolumesOf, type VolumeLookups } from '../../machinery/volumes/attachable.js';
import { DRIVERS, PVCS, PVS } from './names.js';

const NODES = { group: '', version: 'v1', resource: 'nodes' };

export class AttachedVolumes {
  private readonly claims: Lister;
  private readonly volumes: Lister;
  private readonly nodes: Lister;
  private readonly lookups: VolumeLookups;

  /** `changed` is told when a claim or volume appears or changes: pods waiting for them may start. */
  constructor(informers: InformerFactory, changed: () => void) {
    const claims = informers.informer(PVCS);
    const volumes = informers.informer(PVS);
    for (const inf of [claims, volumes]) inf.addEventHandler({ onAdd: changed, onUpdate: changed });
    this.claims = claims.lister;
    this.volumes = volumes.lister;
    this.nodes = informers.informer(NODES).lister;
    const drivers = informers.informer(DRIVERS).lister;
    this.lookups = {
      claim: (ns, name) => this.claims.get(ns, name) as PersistentVolumeClaim | undefined,
      volume: (name) => this.volumes.get('', name) as PersistentVolume | undefined,
      driver: (name) => drivers.get('', name) as CSIDriver | undefined,
    };
  }

  /** Whether the pod's volumes are ready for its containers to start on `nodeName`. */
  ready(pod: Pod, nodeName: string): boolean {
    const claims = podClaimNames(pod);
    if (claims.length === 0) return true;
    for (const { name } of claims) {
      const volumeName = this.lookups.claim(namespaceOf(pod), name)?.spec?.volumeName;
      if (!volumeName || !this.lookups.volume(volumeName)) return false;
    }
    const wanted = attachableVolumesOf(pod, this.lookups);
    if (wanted.length === 0) return true;
    const node = this.nodes.get('', nodeName) as Node | undefined;
    const attached = new Set((node?.status?.volumesAttached ?? []).map((v) => v?.name));
    return wanted.every((v) => attached.has(v.uniqueName));
  }
}
