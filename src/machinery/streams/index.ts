// Server side of the streaming protocols of exec, attach and port-forward, for the kubelet of the
// simulated nodes: SPDY/3.1 and WebSocket upgrades negotiated as the kubelet does, handed to the
// caller as typed sessions of Node streams. See README.md in this folder.
export {
  acceptRemoteCommand,
  refuseRemoteCommandWithoutUpgrade,
  stdStreamsFromQuery,
  RemoteCommandSession,
  SPDY_REMOTE_COMMAND_PROTOCOLS,
  WEBSOCKET_REMOTE_COMMAND_PROTOCOLS,
  type RemoteCommandOptions,
  type StdStreams,
} from './remotecommand.js';
export {
  acceptPortForward,
  refusePortForwardWithoutUpgrade,
  portsFromQuery,
  PortForwardSession,
  SPDY_PORT_FORWARD_PROTOCOLS,
  TUNNELED_SPDY_PORT_FORWARD_PROTOCOL,
  WEBSOCKET_PORT_FORWARD_PROTOCOLS,
  type PortForwardOptions,
  type PortForwardStream,
} from './portforward.js';
export { forward } from './forward.js';
export { execStatus, type CommandOutcome, type ExecStatus } from './exec-status.js';
export type { TerminalSize } from './terminal-size.js';
export { UpgradeRejectedError, type Refusal } from './upgrade.js';
