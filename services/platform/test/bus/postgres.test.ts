import { busContract } from './contract.ts';

busContract('postgres');
