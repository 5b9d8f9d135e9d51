import { runService } from '@ticketing/platform';
import { paymentsService } from './service.ts';

await runService(paymentsService);
