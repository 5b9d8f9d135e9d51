import type { Server } from 'node:http';
import { ConfigError } from './config.ts';
import { releaseHeapWhenQuiet } from './heap-release.ts';
import type { Logger } from './logger.ts';

/** What a long-running process (a service, the gateway) gives back once started. */
interface Running {
  logger: Logger;
  close(): Promise<void>;
}

/** A started HTTP server of the system (a service, the gateway): where it answers, and how to stop it. */
export interface RunningServer extends Running {
  server: Server;
  url: string;
}

/**
 * The entry point of a server process: exits with a clear message on bad configuration, drains and stops once on
 * SIGTERM or SIGINT, and gives memory back while quiet.
 */
export async function runProcess(name: string, start: () => Promise<Running>): Promise<void> {
  let running: Running;
  try {
    running = await start();
  } catch (error) {
    if (error instanceof ConfigError) console.error(`${name}: ${error.message}`);
    else console.error(`${name}: failed to start:`, error);
    process.exit(1);
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.logger.info({ signal }, 'stopping');
    await running.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  releaseHeapWhenQuiet(running.logger);
}
