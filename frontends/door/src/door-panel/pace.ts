import type { DoorCountsView } from '@ticketing/proto';

/** Minutes the door's pace is averaged over: the minute in progress alone would read 0 at its start. */
const PACE_MINUTES = 5;

const decimal = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });

/** Arrivals per minute lately, as shown: '12', '0,4' (a slow start still reads as a start). */
export const recentPace = (perMinute: DoorCountsView['perMinute']) =>
  decimal.format(perMinute.slice(-PACE_MINUTES).reduce((sum, { count }) => sum + count, 0) / PACE_MINUTES);
