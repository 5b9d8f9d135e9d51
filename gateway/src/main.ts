import { ConfigError, loadConfig, releaseHeapWhenQuiet } from '@ticketing/platform';
import { gatewayConfigSchema } from './config.ts';
import { createGateway, type RunningGateway } from './gateway.ts';

let gateway: RunningGateway;
try {
  gateway = await createGateway(loadConfig(gatewayConfigSchema, process.env));
} catch (error) {
  if (error instanceof ConfigError) console.error(`gateway: ${error.message}`);
  else console.error('gateway: failed to start:', error);
  process.exit(1);
}

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  gateway.logger.info({ signal }, 'stopping');
  await gateway.close();
  process.exit(0);
}
process.once('SIGTERM', () => void stop('SIGTERM'));
process.once('SIGINT', () => void stop('SIGINT'));
releaseHeapWhenQuiet(gateway.logger);
