/**
 * Connections the kernel keeps waiting to be accepted. Node's default (511) overflows when a crowd connects at once
 * (an on-sale opening, or the gateway opening a connection for each request it has in flight): the overflow's SYNs
 * are dropped and sent again after 1, 3, 7… s, so buyers wait seconds while every process idles. The kernel caps it
 * at `net.core.somaxconn` (4096 on current kernels).
 */
export const LISTEN_BACKLOG = 4096;
