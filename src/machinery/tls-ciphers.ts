// The TLS cipher order of kubelite's servers (the API server's, the kubelet listener's): Go's
// server order on CPUs with AES instructions, AES-128-GCM first. OpenSSL's default puts
// AES-256-GCM first, which costs more per byte on both ends of a long list, watch, log follow or
// port-forward for no security the API needs.
import { DEFAULT_CIPHERS } from 'node:tls';

const PREFERRED = ['TLS_AES_128_GCM_SHA256', 'TLS_CHACHA20_POLY1305_SHA256', 'TLS_AES_256_GCM_SHA384'];

export const SERVER_CIPHERS = [...PREFERRED, ...DEFAULT_CIPHERS.split(':').filter((c) => !PREFERRED.includes(c))].join(':');
