import { runService } from '@ticketing/platform';
import { ticketsWorkerService } from './service.ts';

await runService(ticketsWorkerService);
