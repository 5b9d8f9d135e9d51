import { runService } from '@ticketing/platform';
import { ordersService } from './service.ts';

await runService(ordersService);
