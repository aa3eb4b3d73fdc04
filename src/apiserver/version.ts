// What /version answers. kubectl's version skew checks and the kubectl dispatcher on this machine
// pick their behaviour from the minor version, so kubelite reports the Kubernetes release whose
// API it serves.
export const KUBERNETES_VERSION = 'v1.33.0';
const [major, minor] = KUBERNETES_VERSION.slice(1).split('.') as [string, string];

export function versionInfo() {
  return {
    major,
    minor,
    gitVersion: `${KUBERNETES_VERSION}+kubelite`,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2026-11-22T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'node',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}
