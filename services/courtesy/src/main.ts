import { runService } from '@ticketing/platform';
import { courtesyService } from './service.ts';

await runService(courtesyService);
