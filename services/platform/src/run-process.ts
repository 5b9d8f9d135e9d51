import type { Server } from 'node:http';
import { ConfigError } from './config.ts';
import { releaseHeapWhenQuiet } from './heap-release.ts';
import type { Logger } from './logger.ts';

/** What a long-running process (a service, the gateway) gives back once started. */
interface Running {
  logger: Logger;
  /**
   * Leaves the load balancer's rotation (readiness off) while still serving, for as long as it needs to notice: the
   * first step of a stop by SIGTERM (a rollout, a scale-down), before `close`.
   */
  drain?(): Promise<void>;
  close(): Promise<void>;
}

/** A started HTTP server of the system (a service, the gateway): where it answers, and how to stop it. */
export interface RunningServer extends Running {
  server: Server;
  url: string;
}

/** Reports why a process could not start, and ends it. */
function failedToStart(name: string, error: unknown): never {
  if (error instanceof ConfigError) console.error(`${name}: ${error.message}`);
  else console.error(`${name}: failed to start:`, error);
  process.exit(1);
}

/** The entry point of a one-off task (migrations): exit 0 once done, 1 with a clear message if it failed. */
export async function runTask(name: string, task: () => Promise<void>): Promise<void> {
  try {
    await task();
  } catch (error) {
    failedToStart(name, error);
  }
  process.exit(0);
}

/**
 * The entry point of a server process: exits with a clear message on bad configuration, stops once on SIGTERM
 * (draining first) or SIGINT (at once), and gives memory back while quiet.
 */
export async function runProcess(name: string, start: () => Promise<Running>): Promise<void> {
  let running: Running;
  try {
    running = await start();
  } catch (error) {
    failedToStart(name, error);
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.logger.info({ signal }, 'stopping');
    if (signal === 'SIGTERM') await running.drain?.();
    await running.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  releaseHeapWhenQuiet(running.logger);
}
