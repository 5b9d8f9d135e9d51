import { loadConfig, runProcess } from '@ticketing/platform';
import { gatewayConfigSchema } from './config.ts';
import { createGateway } from './gateway.ts';

await runProcess('gateway', () => createGateway(loadConfig(gatewayConfigSchema, process.env)));
