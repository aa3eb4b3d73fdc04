// Hub-and-spoke conversion of plain JSON objects: a spoke version converts to and from the storage
// version (the hub) only. Each converter deep-copies its input (conversions must not mutate it),
// sets apiVersion, and applies the version's own steps to the copy.
import type { KubeObject } from '../schema/kind.js';
import { clone, type Obj } from '../go-json.js';

export interface Conversion {
  toHub(obj: KubeObject): KubeObject;
  fromHub(obj: KubeObject): KubeObject;
}

export interface ConversionSteps {
  /** Rewrites a copy of a spoke object (apiVersion already the hub's) into the hub's form. */
  toHub?: (obj: Obj) => void;
  /** Rewrites a copy of a hub object (apiVersion already the spoke's) into the spoke's form. */
  fromHub?: (obj: Obj) => void;
}

/** The conversion between the spoke `apiVersion` and the hub `hubApiVersion`. */
export function conversion(hubApiVersion: string, apiVersion: string, steps: ConversionSteps = {}): Conversion {
  return {
    toHub(obj) {
      const out = clone(obj);
      out.apiVersion = hubApiVersion;
      steps.toHub?.(out);
      return out;
    },
    fromHub(obj) {
      const out = clone(obj);
      out.apiVersion = apiVersion;
      steps.fromHub?.(out);
      return out;
    },
  };
}
