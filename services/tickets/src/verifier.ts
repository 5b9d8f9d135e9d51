import { runService } from '@ticketing/platform';
import { ticketsVerifierService } from './service.ts';

await runService(ticketsVerifierService);
