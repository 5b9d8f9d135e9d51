import { runService } from '@ticketing/platform';
import { mailService } from './service.ts';

await runService(mailService);
