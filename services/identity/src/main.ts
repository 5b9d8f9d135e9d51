import { runService } from '@ticketing/platform';
import { identityService } from './service.ts';

await runService(identityService);
