import { runService } from '@ticketing/platform';
import { catalogService } from './service.ts';

await runService(catalogService);
