import { jest } from '@jest/globals';
import { busContract } from './contract.ts';

// A crashed member's partitions move only after its session times out on the broker.
jest.setTimeout(90_000);
busContract('kafka');
