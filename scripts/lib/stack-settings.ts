import { randomBytes } from 'node:crypto';

/**
 * Where `npm start` listens: this machine only, unless HOST names every interface. The stack runs development tools
 * (anyone reaching it may make themselves administrator), so it is not on the network by default. The processes
 * reach each other at 127.0.0.1, which every one of these answers on.
 */
export const LISTEN_HOSTS = ['127.0.0.1', '0.0.0.0', '::'] as const;

/** A secret of this run only: nothing published in the repository opens the running stack. */
const runSecret = () => randomBytes(24).toString('base64url');

/** The settings `npm start` gives every process it runs, from its own environment. */
export function stackSettings(env: Record<string, string | undefined>) {
  const host = env.HOST ?? '127.0.0.1';
  if (!(LISTEN_HOSTS as readonly string[]).includes(host)) {
    throw new Error(
      'HOST: npm start listens on this machine (127.0.0.1, the default) or every interface (0.0.0.0, ::)',
    );
  }
  return {
    HOST: host,
    // The sandbox and payments must agree on the token that authenticates webhooks.
    ASAAS_WEBHOOK_TOKEN: env.ASAAS_WEBHOOK_TOKEN ?? runSecret(),
    VERIFICATION_SECRET: env.VERIFICATION_SECRET ?? runSecret(),
  };
}
