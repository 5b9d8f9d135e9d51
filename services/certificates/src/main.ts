import { runService } from '@ticketing/platform';
import { certificatesService } from './service.ts';

await runService(certificatesService);
