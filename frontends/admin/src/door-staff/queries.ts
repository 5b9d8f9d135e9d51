import type { DoorStaffView } from '@ticketing/proto';
import { api } from '@ticketing/shared';

/** The query key of an event's door staff (identity's admin API). */
export const doorStaffKey = (eventId: string) => ['admin', 'users', 'door-staff', eventId] as const;

export const fetchDoorStaff = (eventId: string, signal: AbortSignal) =>
  api<DoorStaffView>(`/admin/users/door-staff?${new URLSearchParams({ eventId })}`, { signal });

/** Makes `emails` the whole staff of the event's door; the server answers who it is now. */
export const saveDoorStaff = (eventId: string, emails: string[]) =>
  api<DoorStaffView>('/admin/users/door-staff', { method: 'PUT', body: { eventId, emails } });
