/** How hard a chaos run is: the load it drives and the faults it causes, in order. */
export interface ChaosPlan {
  name: 'full' | 'short';
  /** Buyers acting at once, each with an account of their own. */
  users: number;
  /** Spots of the event that sells out during the run (the rest sell at an event with room to spare). */
  rushSpots: number;
  /** Free courtesy links; each user redeems each one once. */
  courtesyLinks: number;
  /** Guests of the mass send of courtesies, uploaded while courtesy and mail are killed. */
  massSendGuests: number;
  /** The processes killed with SIGKILL, one after the other. */
  kills: string[];
  /** How long the bus is down. */
  busOutageMs: number;
  /** Steady load between two faults. */
  pauseMs: number;
  /** How long the product gets, once the load stops, to bring every invariant true. */
  settleMs: number;
}

/** Every process of the product, killed in this order (courtesy and mail while the mass send runs). */
const EVERY_PROCESS = [
  'orders',
  'payments',
  'catalog',
  'identity',
  'courtesy',
  'mail',
  'certificates',
  'tickets-worker',
  'tickets-verifier',
  'gateway',
];

export const FULL: ChaosPlan = {
  name: 'full',
  users: 8,
  rushSpots: 40,
  courtesyLinks: 2,
  massSendGuests: 200,
  kills: EVERY_PROCESS,
  busOutageMs: 30_000,
  pauseMs: 4000,
  settleMs: 240_000,
};

/** `npm test`'s: the processes of a purchase and of the mass send, shorter outages. */
export const SHORT: ChaosPlan = {
  name: 'short',
  users: 5,
  rushSpots: 12,
  courtesyLinks: 1,
  massSendGuests: 60,
  kills: ['orders', 'payments', 'courtesy', 'mail', 'tickets-worker', 'gateway'],
  busOutageMs: 5000,
  pauseMs: 1500,
  settleMs: 180_000,
};
